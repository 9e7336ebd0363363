import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/token";
import { insertRequestLogs, retentionsIn } from "../../src/features/request-logs/log-writes.repo";
import { requestLogQueries } from "../../src/features/request-logs/request-logs.repo";
import type { RequestLogMessage } from "../../src/features/request-logs/request-logs.schemas";
import { newId } from "../../src/lib/ids";
import { dashboardGet, type SignedIn, signIn } from "./dashboard-helpers";
import { addKey, call, db, eventually, logsDb, seedWorkspace } from "./helpers";
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
    await insertRequestLogs(retentionsIn([db()]), logsDb(), logs);
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
});

describe("the request logs page's path filter", () => {
  it("is served by an index: path contains", async () => {
    const requests = requestLogQueries(logsDb(), { accountId: "acc_X", pathContains: "/v1" }, 50, 0);
    for (const query of [requests.page, requests.total])
      expectIndexed(await planOf(query, env.LOGS), "request_logs");
  });
});
