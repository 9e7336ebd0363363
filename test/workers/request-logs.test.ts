import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RequestLogMessage } from "../../src/features/request-logs/request-logs.schemas";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { newId } from "../../src/lib/ids";
import { addKey, call, callJson, eventually, seedWorkspace } from "./helpers";

type LogList = {
  data: Array<Record<string, unknown>>;
  pagination: { limit: number; offset: number; total: number };
};

const logMessage = (accountId: string, overrides: Partial<RequestLogMessage> = {}): RequestLogMessage => ({
  id: newId("req"),
  account_id: accountId,
  key_id: null,
  key_prefix: null,
  method: "GET",
  path: "/v1/accounts",
  status: 200,
  duration_ms: 3,
  ip: "203.0.113.9",
  user_agent: "test",
  error_code: null,
  created_at: Date.now(),
  ...overrides,
});

async function consume(messages: RequestLogMessage[] | unknown[]) {
  const batch = createMessageBatch(
    "request-logs",
    messages.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

const countLogs = async (accountId: string) =>
  (
    await env.LOGS.prepare(
      "SELECT count(*) AS n FROM request_logs WHERE account = (SELECT n FROM log_accounts WHERE id = ?)",
    )
      .bind(accountId)
      .first<{ n: number }>()
  )?.n ?? 0;

const pathsOf = async (accountId: string) =>
  (
    await env.LOGS.prepare(
      "SELECT path FROM request_logs WHERE account = (SELECT n FROM log_accounts WHERE id = ?) ORDER BY path",
    )
      .bind(accountId)
      .all<{ path: string }>()
  ).results.map((r) => r.path);

const runMinuteCron = (scheduledTime = Date.now()) =>
  worker.scheduled(
    createScheduledController({ cron: CRON.everyMinute, scheduledTime }),
    env,
    createExecutionContext(),
  );

describe("request logs", () => {
  it("records each /v1 request through the queue, after the response", async () => {
    const ws = await seedWorkspace();
    const ok = await call("GET", "/v1/accounts", {
      token: ws.token,
      headers: { "User-Agent": "log-test/1.0", "CF-Connecting-IP": "198.51.100.7" },
    });
    const bad = await call("POST", "/v1/keys", { token: ws.token, body: { name: "x" } });

    const { body } = await eventually(async () => {
      const page = await callJson<LogList>("GET", `/v1/accounts/${ws.accountId}/request-logs`, {
        token: ws.token,
      });
      return page.body.pagination.total >= 2 ? page : null;
    });
    const byId = new Map(body.data.map((log) => [log.id, log]));
    expect(byId.get(ok.headers.get("X-Request-Id") as string)).toEqual({
      id: ok.headers.get("X-Request-Id"),
      method: "GET",
      path: "/v1/accounts",
      status: 200,
      duration_ms: expect.any(Number),
      key_id: ws.keyId,
      key_prefix: expect.stringMatching(/^sk_/),
      ip: "198.51.100.7",
      user_agent: "log-test/1.0",
      error_code: null,
      created_at: expect.any(String),
    });
    expect(byId.get(bad.headers.get("X-Request-Id") as string)).toMatchObject({
      status: 400,
      error_code: "validation_error",
    });
  });

  it("lists newest first with the standard envelope and filters", async () => {
    const ws = await seedWorkspace();
    const other = await addKey(ws.accountId, "read");
    const base = Date.now() - 60_000;
    await consume([
      logMessage(ws.accountId, { created_at: base, status: 200, key_id: ws.keyId }),
      logMessage(ws.accountId, { created_at: base + 1, status: 404, key_id: other.id }),
      logMessage(ws.accountId, { created_at: base + 2, status: 200, key_id: other.id }),
    ]);
    const all = await callJson<LogList>("GET", `/v1/accounts/${ws.accountId}/request-logs?limit=2`, {
      token: ws.token,
    });
    expect(all.body.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
    const times = all.body.data.map((l) => Date.parse(l.created_at as string));
    expect(times).toEqual([base + 2, base + 1]);

    const notFound = await callJson<LogList>("GET", `/v1/accounts/${ws.accountId}/request-logs?status=404`, {
      token: ws.token,
    });
    expect(notFound.body.data.map((l) => l.status)).toEqual([404]);
    const byKey = await callJson<LogList>(
      "GET",
      `/v1/accounts/${ws.accountId}/request-logs?key_id=${other.id}`,
      {
        token: ws.token,
      },
    );
    expect(byKey.body.pagination.total).toBe(2);
    const defaults = await callJson<LogList>("GET", `/v1/accounts/${ws.accountId}/request-logs`, {
      token: ws.token,
    });
    expect(defaults.body.pagination).toMatchObject({ limit: 50, offset: 0 });
  });

  it("never shows another workspace's logs", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    await consume([logMessage(b.accountId)]);
    expect((await call("GET", `/v1/accounts/${b.accountId}/request-logs`, { token: a.token })).status).toBe(
      404,
    );
    const own = await callJson<LogList>("GET", `/v1/accounts/${a.accountId}/request-logs`, {
      token: a.token,
    });
    expect(own.body.data.every((log) => log.key_id !== b.keyId)).toBe(true);
  });

  it("consumes redeliveries idempotently and acknowledges malformed messages", async () => {
    const ws = await seedWorkspace();
    const message = logMessage(ws.accountId);
    const first = await consume([message, { nonsense: true }]);
    expect(first.explicitAcks.sort()).toEqual(["m0", "m1"]);
    await consume([message]);
    expect(await countLogs(ws.accountId)).toBe(1);
  });

  it("reads a flush's records from one message, dropping only its malformed ones", async () => {
    const ws = await seedWorkspace();
    const records = [
      logMessage(ws.accountId, { path: "/one" }),
      { nonsense: true },
      logMessage(ws.accountId, { path: "/two" }),
    ];
    const result = await consume([{ logs: records }, { logs: [] }, { logs: "no" }]);
    expect(result.explicitAcks.sort()).toEqual(["m0", "m1", "m2"]);
    expect(await pathsOf(ws.accountId)).toEqual(["/one", "/two"]);
  });
});

describe("request-log retention", () => {
  it("deletes logs older than each account's retention on the minute cron", async () => {
    const short = await seedWorkspace();
    const long = await seedWorkspace();
    await call("PATCH", `/v1/accounts/${short.accountId}`, {
      token: short.token,
      body: { request_log_retention: "5m" },
    });
    const now = Date.now();
    const sixMinutesAgo = now - 6 * 60_000;
    const fourMinutesAgo = now - 4 * 60_000;
    const eightDaysAgo = now - 8 * 86_400_000;
    await consume([
      logMessage(short.accountId, { created_at: sixMinutesAgo, path: "/old" }),
      logMessage(short.accountId, { created_at: fourMinutesAgo, path: "/young" }),
      logMessage(long.accountId, { created_at: sixMinutesAgo, path: "/kept" }),
      logMessage(long.accountId, { created_at: eightDaysAgo, path: "/expired" }),
    ]);

    await runMinuteCron(now);
    expect(await pathsOf(short.accountId)).toEqual(["/young"]);
    expect(await pathsOf(long.accountId)).toEqual(["/kept"]);
  });

  it("follows a retention changed after the logs arrived (LOGS keeps its own copy of it)", async () => {
    const ws = await seedWorkspace();
    const now = Date.now();
    await consume([
      logMessage(ws.accountId, { created_at: now - 6 * 60_000, path: "/old" }),
      logMessage(ws.accountId, { created_at: now - 60_000, path: "/young" }),
    ]);
    await runMinuteCron(now);
    expect(await pathsOf(ws.accountId)).toEqual(["/old", "/young"]);

    await env.DB_2.prepare(
      "UPDATE accounts SET request_log_retention = '5m', request_log_retention_seconds = 300 WHERE id = ?",
    )
      .bind(ws.accountId)
      .run();
    await runMinuteCron(now);
    expect(await pathsOf(ws.accountId)).toEqual(["/young"]);
  });
});

describe("request logs in their own database (LOGS)", () => {
  it("writes a logged request to LOGS, none to DB, and keeps its request id exactly", async () => {
    const ws = await seedWorkspace();
    const res = await call("GET", "/v1/accounts", { token: ws.token });
    const requestId = res.headers.get("X-Request-Id");
    const { body } = await eventually(async () => {
      const page = await callJson<LogList>("GET", `/v1/accounts/${ws.accountId}/request-logs`, {
        token: ws.token,
      });
      return page.body.data.some((log) => log.id === requestId) ? page : null;
    });
    expect(body.data.find((log) => log.id === requestId)).toMatchObject({
      method: "GET",
      path: "/v1/accounts",
    });
    expect(await countLogs(ws.accountId)).toBeGreaterThan(0);
    const inDb = await env.DB_2.prepare(
      "SELECT name FROM sqlite_master WHERE name IN ('request_logs', 'request_logs_counts')",
    ).all();
    expect(inDb.results).toEqual([]);
  });

  it("a failing LOGS (here DB, which has no log tables) holds up none of the minute cron's other jobs", async () => {
    const ws = await seedWorkspace();
    const id = newId("smtp");
    await env.DB_2.prepare(
      `INSERT INTO smtp_logs (id, account_id, session_id, client_ip, auth, outcome, reply_code, reply, created_at)
       VALUES (?, ?, 'session', '127.0.0.1', 'none', 'accepted', 250, 'OK', ?)`,
    )
      .bind(id, ws.accountId, Date.now() - 8 * 86_400_000)
      .run();
    const controller = createScheduledController({ cron: CRON.everyMinute, scheduledTime: Date.now() });
    await worker.scheduled(controller, { ...env, LOGS: env.DB_2 }, createExecutionContext());
    // The SMTP-log prune runs after the request-log one.
    expect(await env.DB_2.prepare("SELECT id FROM smtp_logs WHERE id = ?").bind(id).first()).toBeNull();
  });

  it("drops the logs of an account DB does not have", async () => {
    await consume([logMessage(newId("acc"), { path: "/nobody" })]);
    const stray = await env.LOGS.prepare(
      "SELECT count(*) AS n FROM request_logs WHERE path = '/nobody'",
    ).first<{
      n: number;
    }>();
    expect(stray?.n).toBe(0);
  });

  it("removes every log of a deleted account on the minute cron, and nothing of another's", async () => {
    const gone = await seedWorkspace();
    const kept = await seedWorkspace();
    await consume([
      logMessage(gone.accountId, { key_id: gone.keyId, key_prefix: "sk_x" }),
      logMessage(kept.accountId),
    ]);
    await env.DB_2.prepare("DELETE FROM accounts WHERE id = ?").bind(gone.accountId).run();
    // Logs that began within the grace period may belong to an account created after DB was read.
    await runMinuteCron();
    expect(await countLogs(gone.accountId)).toBe(1);

    await env.LOGS.prepare("UPDATE log_accounts SET created_at = created_at - 3600000 WHERE id IN (?, ?)")
      .bind(gone.accountId, kept.accountId)
      .run();
    await runMinuteCron();
    expect(await countLogs(gone.accountId)).toBe(0);
    expect(await countLogs(kept.accountId)).toBe(1);
    const numbered = await env.LOGS.prepare("SELECT count(*) AS n FROM log_keys WHERE id = ?")
      .bind(gone.keyId)
      .first<{ n: number }>();
    expect(numbered?.n).toBe(0);
  });
});

describe("request-log user agents, stored once in log_agents", () => {
  const agentRows = async (userAgent: string) =>
    (
      await env.LOGS.prepare("SELECT n FROM log_agents WHERE user_agent = ?")
        .bind(userAgent)
        .all<{ n: number }>()
    ).results;

  it("round-trips a long user agent exactly, and logs with the same one share its row", async () => {
    const ws = await seedWorkspace();
    // A unique agent of the 512 characters a log keeps, with the characters a real one has.
    const userAgent =
      `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ${newId("req")} "ä"; `.padEnd(
        512,
        "x",
      );
    const base = Date.now() - 60_000;
    await consume([
      logMessage(ws.accountId, { created_at: base, user_agent: userAgent }),
      logMessage(ws.accountId, { created_at: base + 1, user_agent: null }),
    ]);
    await consume([logMessage(ws.accountId, { created_at: base + 2, user_agent: userAgent })]);

    const page = await callJson<LogList>("GET", `/v1/accounts/${ws.accountId}/request-logs`, {
      token: ws.token,
    });
    expect(page.body.data.map((log) => log.user_agent)).toEqual([userAgent, null, userAgent]);
    const agents = await agentRows(userAgent);
    expect(agents).toHaveLength(1);
    const numbers = await env.LOGS.prepare(
      "SELECT agent FROM request_logs WHERE account = (SELECT n FROM log_accounts WHERE id = ?) ORDER BY created_at",
    )
      .bind(ws.accountId)
      .all<{ agent: number | null }>();
    expect(numbers.results.map((r) => r.agent)).toEqual([agents[0]?.n, null, agents[0]?.n]);
  });

  it("the retention prune removes the agents no log names any more, and keeps those in use", async () => {
    const ws = await seedWorkspace();
    const gone = `gone-agent/${newId("req")}`;
    const kept = `kept-agent/${newId("req")}`;
    const now = Date.now();
    await consume([
      logMessage(ws.accountId, { created_at: now - 8 * 86_400_000, user_agent: gone }),
      logMessage(ws.accountId, { created_at: now - 60_000, user_agent: kept }),
    ]);
    expect(await agentRows(gone)).toHaveLength(1);

    await runMinuteCron(now);
    expect(await countLogs(ws.accountId)).toBe(1);
    expect(await agentRows(gone)).toEqual([]);
    expect(await agentRows(kept)).toHaveLength(1);
  });
});
