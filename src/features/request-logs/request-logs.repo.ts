import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { counterSum } from "../../db/counters";
import { requestLogCounts, requestLogs } from "../../db/schema";
import type { RequestLogMessage } from "./request-logs.schemas";

export type RequestLogRow = typeof requestLogs.$inferSelect;

export interface RequestLogFilter {
  accountId: string;
  status?: number | undefined;
  keyId?: string | undefined;
  /** Only paths containing this text (the dashboard's filter; the API has none). */
  pathContains?: string | undefined;
}

function whereOf(filter: RequestLogFilter): SQL | undefined {
  return and(
    eq(requestLogs.accountId, filter.accountId),
    filter.status === undefined ? undefined : eq(requestLogs.status, filter.status),
    filter.keyId === undefined ? undefined : eq(requestLogs.keyId, filter.keyId),
    filter.pathContains ? sql`instr(${requestLogs.path}, ${filter.pathContains}) > 0` : undefined,
  );
}

/**
 * The exact number of logs matching the filter: the API's filters (status, key) sum the few
 * counter rows the triggers keep; only the dashboard's path search counts logs.
 */
function totalQuery(db: Db, filter: RequestLogFilter) {
  if (filter.pathContains) return db.select({ total: count() }).from(requestLogs).where(whereOf(filter));
  return db
    .select({ total: counterSum(requestLogCounts.count) })
    .from(requestLogCounts)
    .where(
      and(
        eq(requestLogCounts.accountId, filter.accountId),
        filter.status === undefined ? undefined : eq(requestLogCounts.status, filter.status),
        filter.keyId === undefined ? undefined : eq(requestLogCounts.keyId, filter.keyId),
      ),
    );
}

/** The queries behind a list page, exposed so tests can check their plans use indexes. */
export function requestLogQueries(db: Db, filter: RequestLogFilter, limit: number, offset: number) {
  const where = whereOf(filter);
  return {
    page: db
      .select()
      .from(requestLogs)
      .where(where)
      .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
      .limit(limit)
      .offset(offset),
    total: totalQuery(db, filter),
  };
}

/** A page, newest first, and the filtered total, in one round trip. */
export async function listRequestLogs(db: Db, filter: RequestLogFilter, limit: number, offset: number) {
  const { page, total } = requestLogQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export async function findRequestLog(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.accountId, accountId), eq(requestLogs.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Inserts a whole queue batch in one statement (the rows travel as one JSON parameter, which keeps
 * clear of D1's 100-parameter limit). Redelivered rows are ignored by id; rows of an account that
 * no longer exists are dropped.
 */
export function insertRequestLogs(db: Db, logs: RequestLogMessage[]) {
  return db.run(sql`
    INSERT OR IGNORE INTO request_logs
      (id, account_id, key_id, key_prefix, method, path, status, duration_ms, ip, user_agent, error_code, created_at)
    SELECT j.value ->> 'id', j.value ->> 'account_id', j.value ->> 'key_id', j.value ->> 'key_prefix',
           j.value ->> 'method', j.value ->> 'path', j.value ->> 'status', j.value ->> 'duration_ms',
           j.value ->> 'ip', j.value ->> 'user_agent', j.value ->> 'error_code', j.value ->> 'created_at'
    FROM json_each(${JSON.stringify(logs)}) AS j
    WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = j.value ->> 'account_id')`);
}

/**
 * Deletes up to `batchSize` logs older than their account's retention and answers how many went.
 * The join walks accounts and, per account, the (account_id, created_at) index.
 */
export async function deleteExpiredRequestLogs(db: Db, now: number, batchSize: number): Promise<number> {
  const result = await db.run(sql`
    DELETE FROM request_logs WHERE rowid IN (
      SELECT r.rowid FROM accounts a
      JOIN request_logs r ON r.account_id = a.id
        AND r.created_at < ${now} - a.request_log_retention_seconds * 1000
      LIMIT ${batchSize})`);
  return result.meta.changes ?? 0;
}
