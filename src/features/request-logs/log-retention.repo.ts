import { type SQL, sql } from "drizzle-orm";
import { runBatch } from "../../db/client";
import type { LogsDb } from "../../db/logs/client";
import { logAccounts } from "../../db/logs/schema";
import type { Retentions } from "./log-writes.repo";

/** DB is asked about this many accounts at a time (they travel as one JSON parameter). */
const ACCOUNTS_PER_READ = 1_000;
/**
 * An account whose logs began this recently is never taken for deleted: it may have been created
 * after DB was read. Older ones missing from DB were deleted (LOGS has no cascade from DB).
 */
const NEW_ACCOUNT_GRACE_MS = 5 * 60_000;

/**
 * Brings each log account's retention in step with DB (changed in the dashboard or the API) and
 * answers the numbers of the accounts DB no longer has, whose logs must go.
 */
export async function syncLogAccounts(retentions: Retentions, logs: LogsDb, now: number): Promise<number[]> {
  const held = await logs.select().from(logAccounts);
  const changed: Array<[number, number]> = [];
  const gone: number[] = [];
  for (let start = 0; start < held.length; start += ACCOUNTS_PER_READ) {
    const chunk = held.slice(start, start + ACCOUNTS_PER_READ);
    const current = new Map(
      (await retentions(chunk.map((a) => a.id))).map((a) => [a.id, a.retentionSeconds]),
    );
    for (const account of chunk) {
      const retention = current.get(account.id);
      if (retention === undefined) {
        if (account.createdAt < now - NEW_ACCOUNT_GRACE_MS) gone.push(account.n);
      } else if (retention !== account.retentionSeconds) changed.push([account.n, retention]);
    }
  }
  if (changed.length > 0)
    await logs.run(sql`
      UPDATE log_accounts SET retention_seconds = j.value ->> 1
      FROM json_each(${JSON.stringify(changed)}) AS j WHERE log_accounts.n = j.value ->> 0`);
  return gone;
}

/**
 * Deletes up to `batchSize` logs older than their account's retention and answers how many went.
 * The join walks the log accounts and, per account, the (account, created_at) index.
 */
export async function deleteExpiredRequestLogs(
  logs: LogsDb,
  now: number,
  batchSize: number,
): Promise<number> {
  const result = await logs.run(expiredRequestLogsDelete(now, batchSize));
  return result.meta.changes ?? 0;
}

/**
 * The statement of one batch (see above). `CROSS JOIN` keeps the workspaces the outer loop, as
 * SQLite never reorders one: joined plainly, its planner (which has no statistics) walks the whole
 * index and looks each row's workspace up, reading every log each minute.
 */
export const expiredRequestLogsDelete = (now: number, batchSize: number): SQL => sql`
  DELETE FROM request_logs WHERE n IN (
    SELECT r.n FROM log_accounts a
    CROSS JOIN request_logs r ON r.account = a.n AND r.created_at < ${now} - a.retention_seconds * 1000
    LIMIT ${batchSize})`;

/** Deletes up to `batchSize` logs of the given (deleted) accounts and answers how many went. */
export async function deleteLogsOfAccounts(
  logs: LogsDb,
  accounts: number[],
  batchSize: number,
): Promise<number> {
  const result = await logs.run(sql`
    DELETE FROM request_logs WHERE n IN (
      SELECT r.n FROM json_each(${JSON.stringify(accounts)}) AS j
      JOIN request_logs r ON r.account = j.value
      LIMIT ${batchSize})`);
  return result.meta.changes ?? 0;
}

/** Forgets the numbers, keys and counters of deleted accounts once none of their logs is left. */
export async function forgetLogAccounts(logs: LogsDb, accounts: number[]): Promise<void> {
  const list = JSON.stringify(accounts);
  const empty = (column: string) =>
    sql.raw(`NOT EXISTS (SELECT 1 FROM request_logs r WHERE r.account = ${column})`);
  await runBatch(logs, [
    sql`DELETE FROM log_keys WHERE account IN (SELECT value FROM json_each(${list})) AND ${empty("log_keys.account")}`,
    sql`DELETE FROM request_logs_counts
        WHERE account IN (SELECT value FROM json_each(${list})) AND ${empty("request_logs_counts.account")}`,
    sql`DELETE FROM log_accounts WHERE n IN (SELECT value FROM json_each(${list})) AND ${empty("log_accounts.n")}`,
  ]);
}

/**
 * Deletes up to `batchSize` user agents no log names any more and answers how many went. An agent's
 * `last_used_at` is at or after every log naming it, so an agent used before the oldest log left
 * is unused; the oldest log is one index seek per log account, not a scan of the logs (which have
 * no index of agents: it would cost every row bytes to save the prune a little).
 */
export async function deleteUnusedLogAgents(logs: LogsDb, now: number, batchSize: number): Promise<number> {
  const result = await logs.run(sql`
    DELETE FROM log_agents WHERE n IN (
      SELECT n FROM log_agents WHERE last_used_at < coalesce(
        (SELECT min((SELECT min(r.created_at) FROM request_logs r WHERE r.account = a.n)) FROM log_accounts a),
        ${now})
      LIMIT ${batchSize})`);
  return result.meta.changes ?? 0;
}
