import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eventQueries } from "../../src/features/event-stream/event-stream.repo";
import { deleteExpiredRequestLogs } from "../../src/features/request-logs/log-retention.repo";
import { insertRequestLogs, retentionsIn } from "../../src/features/request-logs/log-writes.repo";
import { requestLogQueries } from "../../src/features/request-logs/request-logs.repo";
import type { RequestLogMessage } from "../../src/features/request-logs/request-logs.schemas";
import { pruneEvents } from "../../src/jobs/prune-events";
import { pruneRequestLogs } from "../../src/jobs/prune-request-logs";
import { newId } from "../../src/lib/ids";
import { callJson, db, logsDb, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type List = { pagination: { total: number } };

const count = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB_2.prepare(sql)
      .bind(...params)
      .first<{ n: number }>()
  )?.n ?? 0;

/** Logs live in LOGS, by account and key number; this counts them by the ids the API knows. */
const countLogs = async (where: string, ...params: unknown[]) =>
  (
    await env.LOGS.prepare(
      `SELECT count(*) AS n FROM request_logs r JOIN log_accounts a ON a.n = r.account
       LEFT JOIN log_keys k ON k.n = r.key WHERE a.id = ?${where}`,
    )
      .bind(...params)
      .first<{ n: number }>()
  )?.n ?? 0;

const log = (
  accountId: string,
  keyId: string | null,
  status: number,
  createdAt: number,
): RequestLogMessage => ({
  id: newId("req"),
  account_id: accountId,
  key_id: keyId,
  key_prefix: null,
  method: "GET",
  path: "/v1/accounts",
  status,
  duration_ms: 1,
  ip: null,
  user_agent: null,
  error_code: null,
  created_at: createdAt,
});

/** Every total the API answers for the workspace's logs, against the logs counted. */
async function expectLogTotalsExact(ws: { accountId: string; token: string }, keyId: string) {
  const cases: Array<[string, string, unknown[]]> = [
    ["", "", []],
    ["?status=404", " AND r.status = ?", [404]],
    [`?key_id=${keyId}`, " AND k.id = ?", [keyId]],
    [`?key_id=${keyId}&status=200`, " AND k.id = ? AND r.status = ?", [keyId, 200]],
  ];
  for (const [query, where, params] of cases) {
    const { body } = await callJson<List>("GET", `/v1/accounts/${ws.accountId}/request-logs${query}`, {
      token: ws.token,
    });
    const counted = await countLogs(where, ws.accountId, ...params);
    expect(body.pagination.total, query).toBe(counted);
  }
}

describe("request log totals kept by triggers", () => {
  it("stay exact through concurrent inserts, redeliveries, retention deletes and the account's deletion", async () => {
    const ws = await seedWorkspace();
    const old = Date.now() - 200 * 86_400_000;
    const batches = Array.from({ length: 6 }, (_, b) =>
      Array.from({ length: 20 }, (_, i) =>
        log(
          ws.accountId,
          i % 3 === 0 ? null : `key_${i % 2}`,
          i % 4 === 0 ? 404 : 200,
          b < 2 ? old : Date.now(),
        ),
      ),
    );
    await Promise.all(batches.map((batch) => insertRequestLogs(retentionsIn([db()]), logsDb(), batch)));
    // A redelivered batch inserts nothing and counts nothing.
    await insertRequestLogs(retentionsIn([db()]), logsDb(), batches[3] ?? []);
    await expectLogTotalsExact(ws, "key_1");
    expect(await countLogs("", ws.accountId)).toBe(120);

    while ((await deleteExpiredRequestLogs(logsDb(), Date.now(), 7)) > 0);
    expect(await countLogs("", ws.accountId)).toBe(80);
    await expectLogTotalsExact(ws, "key_1");

    // No cascade reaches LOGS: the prune removes a deleted account's logs, counters and numbers
    // (once its logs are older than the grace that protects accounts made after DB was read).
    const [{ n: account } = { n: 0 }] = (
      await env.LOGS.prepare("SELECT n FROM log_accounts WHERE id = ?")
        .bind(ws.accountId)
        .all<{ n: number }>()
    ).results;
    await env.DB_2.prepare("DELETE FROM accounts WHERE id = ?").bind(ws.accountId).run();
    await env.LOGS.prepare("UPDATE log_accounts SET created_at = created_at - 3600000 WHERE n = ?")
      .bind(account)
      .run();
    await pruneRequestLogs(retentionsIn([db()]), logsDb(), Date.now());
    const left = async (table: string, column: string) =>
      (
        await env.LOGS.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
          .bind(account)
          .first<{ n: number }>()
      )?.n;
    expect(await left("request_logs", "account")).toBe(0);
    expect(await left("request_logs_counts", "account")).toBe(0);
    expect(await left("log_keys", "account")).toBe(0);
    expect(await left("log_accounts", "n")).toBe(0);
  });
});

const insertEvent = (accountId: string, inboxId: string, event: string, at: number, dispatched: boolean) =>
  env.DB_2.prepare(
    "INSERT INTO events (id, account_id, inbox_id, event, data, created_at, dispatched_at) VALUES (?, ?, ?, ?, '{}', ?, ?)",
  ).bind(newId("evt"), accountId, inboxId, event, at, dispatched ? at : null);

async function expectEventTotalsExact(ws: { accountId: string; token: string }) {
  const cases: Array<[string, string, unknown[]]> = [
    ["", "", []],
    ["?event=ticket.created", " AND event = ?", ["ticket.created"]],
    ["?inbox_id=inb_A", " AND inbox_id = ?", ["inb_A"]],
    ["?inbox_id=inb_A&event=ticket.updated", " AND inbox_id = ? AND event = ?", ["inb_A", "ticket.updated"]],
  ];
  for (const [query, where, params] of cases) {
    const { body } = await callJson<List>("GET", `/v1/accounts/${ws.accountId}/events${query}`, {
      token: ws.token,
    });
    const counted = await count(
      `SELECT count(*) AS n FROM events WHERE account_id = ?${where}`,
      ws.accountId,
      ...params,
    );
    expect(body.pagination.total, query).toBe(counted);
  }
}

describe("event totals kept by triggers", () => {
  it("stay exact through inserts, the retention prune (undispatched events kept) and the account's cascade", async () => {
    const ws = await seedWorkspace();
    const old = Date.now() - 200 * 86_400_000;
    const names = ["ticket.created", "ticket.updated", "message.created"];
    await env.DB_2.batch(
      Array.from({ length: 60 }, (_, i) =>
        insertEvent(
          ws.accountId,
          i % 2 ? "inb_A" : "inb_B",
          names[i % 3] ?? "",
          i < 30 ? old : Date.now(),
          i % 5 !== 0,
        ),
      ),
    );
    await expectEventTotalsExact(ws);

    await pruneEvents(db(), Date.now());
    // The 30 old events go, but for the 6 never dispatched.
    expect(await count("SELECT count(*) AS n FROM events WHERE account_id = ?", ws.accountId)).toBe(36);
    await expectEventTotalsExact(ws);

    await env.DB_2.prepare("DELETE FROM accounts WHERE id = ?").bind(ws.accountId).run();
    expect(await count("SELECT count(*) AS n FROM events_counts WHERE account_id = ?", ws.accountId)).toBe(0);
  });
});

describe("big list queries walk indexes on seeded tables", () => {
  it.each([
    ["no filter", {}],
    ["status", { status: 404 }],
    ["key_id", { keyId: "key_plan1" }],
    ["key_id and status", { keyId: "key_plan1", status: 200 }],
  ])("request logs with %s: the page in its order, the total from the counters", async (_name, filter) => {
    await seedLogs();
    const { page, total } = requestLogQueries(logsDb(), { accountId: "acc_plan", ...filter }, 50, 0);
    expectIndexed(await planOf(page, env.LOGS), "request_logs");
    const totalPlan = await planOf(total, env.LOGS);
    expectIndexed(totalPlan, "request_logs_counts");
    expect(totalPlan.join("\n")).not.toMatch(/request_logs /);
  });

  it.each([
    ["no filter", {}],
    ["event", { event: "ticket.created" }],
    ["inbox_id", { inboxId: "inb_A" }],
    ["inbox_id and event", { inboxId: "inb_A", event: "ticket.created" }],
  ])("events with %s: the page in its order, the total from the counters", async (_name, filter) => {
    await seedEvents();
    const { page, total } = eventQueries(db(), { accountId: "acc_plan", ...filter }, 50, 0);
    expectIndexed(await planOf(page), "events");
    const totalPlan = await planOf(total);
    expectIndexed(totalPlan, "events_counts");
    expect(totalPlan.join("\n")).not.toMatch(/events /);
  });
});

/** The account of the seeded rows, then the 100 other accounts a real database would also hold. */
const owner = "CASE WHEN i < 3000 THEN 'acc_plan' ELSE printf('acc_plan%03d', i % 100) END";

/**
 * 3,000 logs and 3,000 events of one account among 6,000 of 101 accounts, analysed, so the planner
 * sees realistic tables, counter tables included. The events are old and dispatched, as a real
 * database's are: storage outlives this file, and undispatched ones would be the first the minute
 * sweep of a later file takes. Only these tables are analysed, so no other table's statistics are
 * taken from a moment when it was nearly empty.
 */
async function seedAll() {
  await env.DB_2.batch([
    env.DB_2.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
       INSERT OR IGNORE INTO accounts (id, name)
       SELECT CASE WHEN i = 100 THEN 'acc_plan' ELSE printf('acc_plan%03d', i) END, 'Plan' FROM n`,
    ),
    env.DB_2.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 5999)
       INSERT OR IGNORE INTO events (id, account_id, inbox_id, event, data, created_at, dispatched_at)
       SELECT printf('evt_plan%05d', i), ${owner}, printf('inb_%s', char(65 + i % 4)),
         CASE i % 3 WHEN 0 THEN 'ticket.created' WHEN 1 THEN 'ticket.updated' ELSE 'message.created' END, '{}', i, i
       FROM n`,
    ),
    ...["events", "events_counts"].map((table) => env.DB_2.prepare(`ANALYZE ${table}`)),
  ]);
  // The logs in LOGS, seeded once (they have no unique ids to ignore a second copy by).
  const logAccount = (expression: string) => `(SELECT n FROM log_accounts WHERE id = ${expression})`;
  await env.LOGS.batch([
    env.LOGS.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
       INSERT OR IGNORE INTO log_accounts (id, retention_seconds, created_at)
       SELECT CASE WHEN i = 100 THEN 'acc_plan' ELSE printf('acc_plan%03d', i) END, 604800, 0 FROM n`,
    ),
    env.LOGS.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4)
       INSERT OR IGNORE INTO log_keys (account, id) SELECT ${logAccount("'acc_plan'")}, printf('key_plan%d', i) FROM n`,
    ),
    env.LOGS.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 5999)
       INSERT INTO request_logs (account, key, request_id, method, path, status, duration_ms, created_at)
       SELECT ${logAccount(owner)}, (SELECT n FROM log_keys WHERE id = printf('key_plan%d', i % 5)),
         randomblob(16), 'GET', '/v1/x', CASE WHEN i % 7 = 0 THEN 404 ELSE 200 END, 1, i FROM n
       WHERE NOT EXISTS (SELECT 1 FROM request_logs WHERE account = ${logAccount("'acc_plan'")})`,
    ),
    ...["request_logs", "request_logs_counts"].map((table) => env.LOGS.prepare(`ANALYZE ${table}`)),
  ]);
}
const seedLogs = seedAll;
const seedEvents = seedAll;
