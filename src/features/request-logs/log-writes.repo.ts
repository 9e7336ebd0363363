import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import type { LogsDb } from "../../db/logs/client";
import { accounts } from "../../db/schema";
import { mapAtMost } from "../../lib/at-most";
import { requestIdToHex } from "./request-id-bytes";
import type { RequestLogMessage } from "./request-logs.schemas";

/** The accounts of `ids` that still exist, with their request-log retention. */
export type Retentions = (ids: string[]) => Promise<Array<{ id: string; retentionSeconds: number }>>;

/** The accounts of `ids` that one shard holds, with their request-log retention. */
export function accountRetentions(db: Db, ids: string[]) {
  return db
    .select({ id: accounts.id, retentionSeconds: accounts.requestLogRetentionSeconds })
    .from(accounts)
    .where(sql`${accounts.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
}

/**
 * `Retentions` over these shards: each is asked about every id (one read each, in parallel) and
 * answers for the workspaces it holds; a workspace lives in one shard only.
 */
export const retentionsIn =
  (shards: Db[]): Retentions =>
  async (ids) =>
    (await mapAtMost(shards, (db) => accountRetentions(db, ids))).flat();

/** Agents' `last_used_at` moves in whole hours, so a busy agent's row is rewritten hourly, not per batch. */
const AGENT_USE_STEP_MS = 3_600_000;

/** The hour boundary after `time`: at or after it, as the agent prune needs (log-retention.repo.ts). */
const hourAfter = (time: number) => (Math.floor(time / AGENT_USE_STEP_MS) + 1) * AGENT_USE_STEP_MS;

/** Each user agent of the rows once, with the hour after its newest row. */
function agentsOf(rows: RequestLogMessage[]) {
  const newest = new Map<string, number>();
  for (const row of rows)
    if (row.user_agent !== null)
      newest.set(row.user_agent, Math.max(newest.get(row.user_agent) ?? 0, row.created_at));
  return [...newest].map(([userAgent, time]) => ({ userAgent, lastUsedAt: hourAfter(time) }));
}

/**
 * Inserts a queue batch into LOGS in one D1 batch: the accounts, keys and user agents it names are
 * numbered first (once each), then the logs refer to them by number. Every list travels as one JSON
 * parameter (D1 allows 100 per statement). Rows of an account that no shard has any more are dropped;
 * a redelivered log (same account, time and id) is ignored, without an index of ids: the
 * (account, created_at) index finds it.
 */
export async function insertRequestLogs(
  retentions: Retentions,
  logs: LogsDb,
  messages: RequestLogMessage[],
  now = Date.now(),
): Promise<void> {
  const unique = [...new Map(messages.map((m) => [m.id, m])).values()];
  const known = await retentions([...new Set(unique.map((m) => m.account_id))]);
  const existing = new Set(known.map((a) => a.id));
  const rows = unique.flatMap((m) => {
    const hex = requestIdToHex(m.id);
    return hex && existing.has(m.account_id) ? [{ ...m, hex }] : [];
  });
  if (rows.length === 0) return;
  const keys = [...new Map(rows.filter((r) => r.key_id).map((r) => [r.key_id, r])).values()];
  await runBatch(logs, [
    // `WHERE true` lets SQLite tell the upsert's ON CONFLICT from a join's ON.
    sql`INSERT INTO log_accounts (id, retention_seconds, created_at)
        SELECT j.value ->> 'id', j.value ->> 'retentionSeconds', ${now}
        FROM json_each(${JSON.stringify(known)}) AS j WHERE true
        ON CONFLICT (id) DO UPDATE SET retention_seconds = excluded.retention_seconds
          WHERE retention_seconds <> excluded.retention_seconds`,
    sql`INSERT INTO log_keys (account, id, prefix)
        SELECT a.n, j.value ->> 'key_id', j.value ->> 'key_prefix'
        FROM json_each(${JSON.stringify(keys)}) AS j JOIN log_accounts a ON a.id = j.value ->> 'account_id'
        WHERE true
        ON CONFLICT (id) DO UPDATE SET prefix = excluded.prefix WHERE prefix IS NULL`,
    sql`INSERT INTO log_agents (user_agent, last_used_at)
        SELECT j.value ->> 'userAgent', j.value ->> 'lastUsedAt' FROM json_each(${JSON.stringify(agentsOf(rows))}) AS j
        WHERE true
        ON CONFLICT (user_agent) DO UPDATE SET last_used_at = excluded.last_used_at
          WHERE last_used_at < excluded.last_used_at`,
    sql`INSERT INTO request_logs
          (account, key, agent, request_id, method, path, status, duration_ms, ip, error_code, created_at)
        SELECT a.n, coalesce(k.n, 0), g.n, unhex(j.value ->> 'hex'), j.value ->> 'method', j.value ->> 'path',
               j.value ->> 'status', j.value ->> 'duration_ms', j.value ->> 'ip',
               j.value ->> 'error_code', j.value ->> 'created_at'
        FROM json_each(${JSON.stringify(rows)}) AS j
        JOIN log_accounts a ON a.id = j.value ->> 'account_id'
        LEFT JOIN log_keys k ON k.id = j.value ->> 'key_id'
        LEFT JOIN log_agents g ON g.user_agent = j.value ->> 'user_agent'
        WHERE NOT EXISTS (
          SELECT 1 FROM request_logs r
          WHERE r.account = a.n AND r.created_at = j.value ->> 'created_at'
            AND r.request_id = unhex(j.value ->> 'hex'))`,
  ]);
}
