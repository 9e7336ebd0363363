import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/token";
import { smtpLogQueries } from "../../src/features/smtp-logs/smtp-logs.repo";
import type { SmtpLogRecord } from "../../src/features/smtp-logs/smtp-logs.schemas";
import { dashboardGet, type SignedIn, signIn } from "./dashboard-helpers";
import { call, db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const page = async (path: string, who: SignedIn) => {
  const res = await dashboardGet(path, who);
  return { status: res.status, html: await res.text() };
};

/** Never on a page: the API token, its hash, an Authorization header, the relay's token. */
async function expectNoSecret(html: string, token: string) {
  expect(html).not.toContain(token);
  expect(html).not.toContain(await hashToken(token));
  expect(html).not.toContain("Bearer");
  expect(html).not.toContain(env.RELAY_TOKEN);
}

const smtpRecord = (overrides: Partial<SmtpLogRecord> = {}): SmtpLogRecord => ({
  session_id: crypto.randomUUID(),
  client_ip: "203.0.113.7",
  tls: "TLSv1.3",
  auth: "succeeded",
  key_hash: null,
  mail_from: "a@acme.test",
  rcpt_to: ["ada@example.com", "hidden@example.com"],
  size: 2048,
  outcome: "accepted",
  reply_code: 250,
  reply: "250 2.0.0 Ok: queued as eml_x",
  email_id: "eml_x",
  at: new Date().toISOString(),
  ...overrides,
});

/** Posts records the way the relay does. */
async function relayPosts(logs: SmtpLogRecord[]) {
  const res = await call("POST", "/_relay/smtp-logs", { token: env.RELAY_TOKEN, body: { logs } });
  expect(res.status).toBe(200);
}

const listedSmtpLogs = (html: string) =>
  [...html.matchAll(/href="\/dashboard\/smtp-logs\/(smtp_[0-9A-Z]+)"/g)].map((m) => m[1]);

describe("the SMTP logs pages", () => {
  it("list what the relay recorded for the workspace, to an agent, filtered by outcome and paginated", async () => {
    const ws = await seedWorkspace();
    const keyHash = await hashToken(ws.token);
    const agent = await signIn(ws.accountId, "agent");
    const base = Date.now() - 60_000;
    await relayPosts([
      smtpRecord({ key_hash: keyHash, at: new Date(base).toISOString() }),
      smtpRecord({
        key_hash: keyHash,
        at: new Date(base + 1).toISOString(),
        outcome: "rejected",
        reply_code: 550,
        reply: "550 5.7.1 Sender domain not verified",
        email_id: null,
      }),
      smtpRecord({
        key_hash: keyHash,
        at: new Date(base + 2).toISOString(),
        outcome: "auth_failed",
        auth: "failed",
        mail_from: null,
        rcpt_to: [],
        size: null,
        reply_code: 535,
        reply: "535 5.7.8 Authentication failed",
        email_id: null,
      }),
    ]);
    const { html } = await page("/dashboard/smtp-logs", agent);
    expect(listedSmtpLogs(html)).toHaveLength(3);
    expect(html).toContain('aria-current="page">SMTP logs</a>');
    for (const text of [
      '<span class="badge good">accepted</span>',
      '<span class="badge bad">rejected</span>',
      '<span class="badge bad">auth failed</span>',
      "550 5.7.1 Sender domain not verified",
      '<td class="address">a@acme.test</td>',
      '<td class="num">2</td>',
      "2.0 KB",
      "<code>203.0.113.7</code>",
    ])
      expect(html).toContain(text);
    await expectNoSecret(html, ws.token);

    const rejected = (await page("/dashboard/smtp-logs?outcome=rejected", agent)).html;
    expect(listedSmtpLogs(rejected)).toHaveLength(1);
    expect(rejected).toContain("Sender domain not verified");
    expect(rejected).not.toContain("queued as eml_x");
    expect(listedSmtpLogs((await page("/dashboard/smtp-logs?outcome=", agent)).html)).toHaveLength(3);
    expect((await page("/dashboard/smtp-logs?outcome=exploded", agent)).status).toBe(400);

    const first = (await page("/dashboard/smtp-logs?limit=2", agent)).html;
    expect(listedSmtpLogs(first)).toHaveLength(2);
    expect(first).toContain("1–2 of 3");
    expect(first).toContain('href="/dashboard/smtp-logs?limit=2&amp;offset=2">Next</a>');
    const second = (await page("/dashboard/smtp-logs?limit=2&offset=2", agent)).html;
    expect(listedSmtpLogs(second)).toEqual([listedSmtpLogs(html)[2]]);
  });

  it("show one row in full, escaped; another workspace's row is a 404", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    await relayPosts([
      smtpRecord({
        key_hash: await hashToken(ws.token),
        mail_from: "<script>alert(1)</script>@acme.test",
        rcpt_to: ["ada@example.com", "bob@example.com", "<b>cc</b>@example.com"],
        reply: "550 <script>alert(2)</script>",
        outcome: "rejected",
        reply_code: 550,
        email_id: null,
      }),
    ]);
    const list = (await page("/dashboard/smtp-logs", agent)).html;
    const [id] = listedSmtpLogs(list);
    const detail = await page(`/dashboard/smtp-logs/${id}`, agent);
    expect(detail.status).toBe(200);
    for (const text of [
      `<code>${id}</code>`,
      "Recipients (3)",
      "<li>bob@example.com</li>",
      "<li>&lt;b&gt;cc&lt;/b&gt;@example.com</li>",
      "TLSv1.3",
      "succeeded",
      `<code>${ws.token.slice(0, 10)}…</code>`,
      `<code class="muted">${ws.keyId}</code>`,
      "2048 bytes",
    ])
      expect(detail.html).toContain(text);
    for (const html of [list, detail.html]) {
      expect(html).not.toContain("<script>alert");
      expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    }
    await expectNoSecret(detail.html, ws.token);

    const outsider = await signIn((await seedWorkspace()).accountId, "owner");
    expect((await page(`/dashboard/smtp-logs/${id}`, outsider)).status).toBe(404);
    expect(listedSmtpLogs((await page("/dashboard/smtp-logs", outsider)).html)).toEqual([]);
  });

  it("filter by outcome with an index", async () => {
    const { page: rows, total } = smtpLogQueries(db(), "acc_X", 50, 0, { outcome: "rejected" });
    for (const query of [rows, total]) expectIndexed(await planOf(query), "smtp_logs");
  });
});
