import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/token";
import { insertRequestLogs, requestLogQueries } from "../../src/features/request-logs/request-logs.repo";
import type { RequestLogMessage } from "../../src/features/request-logs/request-logs.schemas";
import { smtpLogQueries } from "../../src/features/smtp-logs/smtp-logs.repo";
import type { SmtpLogRecord } from "../../src/features/smtp-logs/smtp-logs.schemas";
import { newId } from "../../src/lib/ids";
import { dashboardGet, type SignedIn, signIn } from "./dashboard-helpers";
import { addKey, call, db, eventually, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const page = async (path: string, who: SignedIn) => {
  const res = await dashboardGet(path, who);
  return { status: res.status, html: await res.text() };
};

/** The request ids a request-logs page lists, in order. */
const listedRequests = (html: string) =>
  [...html.matchAll(/href="\/dashboard\/request-logs\/(req_[0-9A-Z]+)"/g)].map((m) => m[1]);

const logMessage = (accountId: string, overrides: Partial<RequestLogMessage> = {}): RequestLogMessage => ({
  id: newId("req"),
  account_id: accountId,
  key_id: null,
  key_prefix: null,
  method: "GET",
  path: "/v1/tickets",
  status: 200,
  duration_ms: 3,
  ip: "203.0.113.9",
  user_agent: "test",
  error_code: null,
  created_at: Date.now(),
  ...overrides,
});

/** Never on a page: the API token, its hash, an Authorization header. */
async function expectNoSecret(html: string, token: string) {
  expect(html).not.toContain(token);
  expect(html).not.toContain(await hashToken(token));
  expect(html).not.toContain("Bearer");
}

describe("the request logs pages", { timeout: 30_000 }, () => {
  it("list the API calls just made, with their status, to an agent; each filter narrows", async () => {
    const ws = await seedWorkspace();
    const reader = await addKey(ws.accountId, "read");
    const agent = await signIn(ws.accountId, "agent");
    const ok = await call("GET", "/v1/tickets?limit=3", { token: ws.token });
    const missing = await call("GET", "/v1/tickets/tkt_nope", { token: ws.token });
    const byReader = await call("GET", "/v1/inboxes", { token: reader.token });
    expect([ok.status, missing.status, byReader.status]).toEqual([200, 404, 200]);
    const [okId, missingId, readerId] = [ok, missing, byReader].map((r) => r.headers.get("X-Request-Id"));

    // The logs travel through a queue after the response.
    const all = await eventually(async () => {
      const { html } = await page("/dashboard/request-logs", agent);
      return listedRequests(html).length === 3 ? html : null;
    });
    expect(listedRequests(all)).toEqual([readerId, missingId, okId]);
    expect(all).toContain('aria-current="page">Request logs</a>');
    expect(all).toContain("<code>GET /v1/tickets/tkt_nope</code>");
    expect(all).toContain('<span class="badge warn">404</span>');
    expect(all).toContain(`<code>${ws.token.slice(0, 10)}…</code>`);
    // The key filter offers the workspace's keys.
    expect(all).toContain(`<option value="${reader.id}">`);
    await expectNoSecret(all, ws.token);
    await expectNoSecret(all, reader.token);

    const filtered = async (query: string) =>
      listedRequests((await page(`/dashboard/request-logs?${query}`, agent)).html);
    expect(await filtered("status=404")).toEqual([missingId]);
    expect(await filtered("path=tkt_nope")).toEqual([missingId]);
    expect(await filtered("path=%2Fv1%2Ftickets")).toEqual([missingId, okId]);
    expect(await filtered(`key_id=${reader.id}`)).toEqual([readerId]);
    expect(await filtered(`status=200&key_id=${ws.keyId}`)).toEqual([okId]);
    // The untouched fields of the form mean "any".
    expect(await filtered("status=&path=&key_id=")).toEqual([readerId, missingId, okId]);
    const filteredPage = (await page("/dashboard/request-logs?status=404", agent)).html;
    expect(filteredPage).toContain('value="404"');
    expect(filteredPage).toContain('href="/dashboard/request-logs">Clear</a>');

    const bad = await page("/dashboard/request-logs?status=abc", agent);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("status");
  });

  it("paginate, keeping the filters", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const base = Date.now() - 60_000;
    const logs = [0, 1, 2, 3, 4].map((i) =>
      logMessage(ws.accountId, { created_at: base + i, status: i === 4 ? 500 : 201 }),
    );
    await insertRequestLogs(db(), logs);
    const first = await page("/dashboard/request-logs?status=201&limit=2", owner);
    expect(listedRequests(first.html)).toEqual([logs[3]?.id, logs[2]?.id]);
    expect(first.html).toContain("1–2 of 4");
    expect(first.html).toContain(
      'href="/dashboard/request-logs?status=201&amp;limit=2&amp;offset=2">Next</a>',
    );
    expect(first.html).not.toContain(">Previous</a>");
    const last = await page("/dashboard/request-logs?status=201&limit=2&offset=2", owner);
    expect(listedRequests(last.html)).toEqual([logs[1]?.id, logs[0]?.id]);
    expect(last.html).toContain('href="/dashboard/request-logs?status=201&amp;limit=2">Previous</a>');
    expect(last.html).not.toContain(">Next</a>");
  });

  it("show one request in full; another workspace's request is a 404", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    const bad = await call("POST", "/v1/keys", {
      token: ws.token,
      body: { name: "x" },
      headers: { "User-Agent": "detail-test/2.0", "CF-Connecting-IP": "198.51.100.7" },
    });
    const id = bad.headers.get("X-Request-Id") as string;
    const detail = await eventually(async () => {
      const shown = await page(`/dashboard/request-logs/${id}`, agent);
      return shown.status === 200 ? shown.html : null;
    });
    for (const text of [
      `<code>${id}</code>`,
      "POST /v1/keys",
      '<span class="badge warn">400</span>',
      "<code>validation_error</code>",
      `<code>${ws.token.slice(0, 10)}…</code>`,
      `<code class="muted">${ws.keyId}</code>`,
      `href="/dashboard/request-logs?key_id=${ws.keyId}"`,
      "198.51.100.7",
      "<code>detail-test/2.0</code>",
      " ms</dd>",
      "<time datetime=",
    ])
      expect(detail).toContain(text);
    await expectNoSecret(detail, ws.token);

    const stranger = await seedWorkspace();
    const outsider = await signIn(stranger.accountId, "owner");
    const foreign = await page(`/dashboard/request-logs/${id}`, outsider);
    expect(foreign.status).toBe(404);
    expect(foreign.html).toContain("<h1>Not found</h1>");
    expect(listedRequests((await page("/dashboard/request-logs", outsider)).html)).not.toContain(id);
    expect((await page("/dashboard/request-logs/req_nothing", agent)).status).toBe(404);
  });

  it("escape what a client put in a path or user agent", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    const res = await call("GET", "/v1/tickets/<script>alert(1)<\\script>", {
      token: ws.token,
      headers: { "User-Agent": "<script>alert(2)</script>" },
    });
    const id = res.headers.get("X-Request-Id") as string;
    const list = await eventually(async () => {
      const { html } = await page("/dashboard/request-logs", agent);
      return listedRequests(html).includes(id) ? html : null;
    });
    const detail = (await page(`/dashboard/request-logs/${id}`, agent)).html;
    for (const html of [list, detail]) {
      expect(html).not.toContain("<script>alert");
      expect(html).toContain("&lt;script&gt;alert(1)");
    }
    expect(detail).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });

  it("filter by path with an index", async () => {
    const { page: rows, total } = requestLogQueries(db(), { accountId: "acc_X", pathContains: "/v1" }, 50, 0);
    expectIndexed(await planOf(rows), "request_logs");
    expectIndexed(await planOf(total), "request_logs");
  });
});

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
    expect(html).not.toContain(env.RELAY_TOKEN);

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
    expectIndexed(await planOf(rows), "smtp_logs");
    expectIndexed(await planOf(total), "smtp_logs");
  });
});
