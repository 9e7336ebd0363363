import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { counterSum } from "../../db/counters";
import type { LogsDb } from "../../db/logs/client";
import { logAccounts, logAgents, logKeys, requestLogCounts, requestLogs } from "../../db/logs/schema";
import { requestIdTime, requestIdToHex } from "./request-id-bytes";

export interface RequestLogFilter {
  accountId: string;
  status?: number | undefined;
  keyId?: string | undefined;
  /** Only paths containing this text (the dashboard's filter; the API has none). */
  pathContains?: string | undefined;
}

/** A log row with its account's, key's and agent's numbers resolved back to what the API shows. */
const logColumns = {
  requestIdHex: sql<string>`hex(${requestLogs.requestId})`.as("request_id_hex"),
  method: requestLogs.method,
  path: requestLogs.path,
  status: requestLogs.status,
  durationMs: requestLogs.durationMs,
  keyId: logKeys.id,
  keyPrefix: logKeys.prefix,
  ip: requestLogs.ip,
  userAgent: logAgents.userAgent,
  errorCode: requestLogs.errorCode,
  createdAt: requestLogs.createdAt,
};

// Scalar subqueries: SQLite evaluates each once, then seeks the index with the number it found.
const accountNumber = (accountId: string) =>
  sql`(SELECT ${logAccounts.n} FROM ${logAccounts} WHERE ${logAccounts.id} = ${accountId})`;
const keyNumber = (keyId: string) =>
  sql`(SELECT ${logKeys.n} FROM ${logKeys} WHERE ${logKeys.id} = ${keyId})`;

function whereOf(filter: RequestLogFilter): SQL | undefined {
  return and(
    eq(requestLogs.account, accountNumber(filter.accountId)),
    filter.status === undefined ? undefined : eq(requestLogs.status, filter.status),
    filter.keyId === undefined ? undefined : eq(requestLogs.key, keyNumber(filter.keyId)),
    filter.pathContains ? sql`instr(${requestLogs.path}, ${filter.pathContains}) > 0` : undefined,
  );
}

/**
 * The exact number of logs matching the filter: the API's filters (status, key) sum the few
 * counter rows the triggers keep; only the dashboard's path search counts logs.
 */
function totalQuery(db: LogsDb, filter: RequestLogFilter) {
  if (filter.pathContains) return db.select({ total: count() }).from(requestLogs).where(whereOf(filter));
  return db
    .select({ total: counterSum(requestLogCounts.count) })
    .from(requestLogCounts)
    .where(
      and(
        eq(requestLogCounts.account, accountNumber(filter.accountId)),
        filter.status === undefined ? undefined : eq(requestLogCounts.status, filter.status),
        filter.keyId === undefined ? undefined : eq(requestLogCounts.key, keyNumber(filter.keyId)),
      ),
    );
}

/** The queries behind a list page, exposed so tests can check their plans use indexes. */
export function requestLogQueries(db: LogsDb, filter: RequestLogFilter, limit: number, offset: number) {
  return {
    page: db
      .select(logColumns)
      .from(requestLogs)
      .leftJoin(logKeys, eq(logKeys.n, requestLogs.key))
      .leftJoin(logAgents, eq(logAgents.n, requestLogs.agent))
      .where(whereOf(filter))
      .orderBy(desc(requestLogs.createdAt), desc(requestLogs.n))
      .limit(limit)
      .offset(offset),
    total: totalQuery(db, filter),
  };
}

export type RequestLogRow = Awaited<ReturnType<typeof requestLogQueries>["page"]>[number];

/** A page, newest first, and the filtered total, in one round trip. */
export async function listRequestLogs(db: LogsDb, filter: RequestLogFilter, limit: number, offset: number) {
  const { page, total } = requestLogQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/**
 * A request begins a moment after its id is made (both read the clock in the same request), so
 * the id's time finds the log through the (account, created_at) index; a minute either side
 * allows for clocks. Logs have no index of their own ids: it would cost every row ~25 bytes.
 */
const ID_TIME_SLACK_MS = 60_000;

export async function findRequestLog(db: LogsDb, accountId: string, id: string) {
  const hex = requestIdToHex(id);
  if (!hex) return null;
  const madeAt = requestIdTime(hex);
  const rows = await db
    .select(logColumns)
    .from(requestLogs)
    .leftJoin(logKeys, eq(logKeys.n, requestLogs.key))
    .leftJoin(logAgents, eq(logAgents.n, requestLogs.agent))
    .where(
      and(
        eq(requestLogs.account, accountNumber(accountId)),
        sql`${requestLogs.createdAt} BETWEEN ${madeAt - ID_TIME_SLACK_MS} AND ${madeAt + ID_TIME_SLACK_MS}`,
        sql`${requestLogs.requestId} = unhex(${hex})`,
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}
