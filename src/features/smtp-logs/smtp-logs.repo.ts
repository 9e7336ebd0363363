import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apiKeys, smtpLogs } from "../../db/schema";

export type SmtpLogRow = typeof smtpLogs.$inferSelect;
export type NewSmtpLogRow = typeof smtpLogs.$inferInsert;

/** Narrower lists the dashboard offers (the API lists every row). */
export interface SmtpLogFilter {
  outcome?: string | undefined;
}

/** The queries behind a list page, exposed so tests can check their plans use indexes. */
export function smtpLogQueries(
  db: Db,
  accountId: string,
  limit: number,
  offset: number,
  filter: SmtpLogFilter = {},
) {
  const where = and(
    eq(smtpLogs.accountId, accountId),
    filter.outcome ? eq(smtpLogs.outcome, filter.outcome) : undefined,
  );
  return {
    page: db
      .select()
      .from(smtpLogs)
      .where(where)
      .orderBy(desc(smtpLogs.createdAt), desc(smtpLogs.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(smtpLogs).where(where),
  };
}

/** A page, newest first, and the total, in one round trip. */
export async function listSmtpLogs(
  db: Db,
  accountId: string,
  limit: number,
  offset: number,
  filter: SmtpLogFilter = {},
) {
  const { page, total } = smtpLogQueries(db, accountId, limit, offset, filter);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export async function findSmtpLog(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(smtpLogs)
    .where(and(eq(smtpLogs.accountId, accountId), eq(smtpLogs.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** The keys, revoked ones included, whose token hashes are among `hashes` (served by its unique index). */
export function keysByHash(db: Db, hashes: string[]) {
  return db
    .select({
      tokenHash: apiKeys.tokenHash,
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      keyPrefix: apiKeys.keyPrefix,
    })
    .from(apiKeys)
    .where(sql`${apiKeys.tokenHash} IN (SELECT value FROM json_each(${JSON.stringify(hashes)}))`);
}

/** One statement for the whole batch: the rows travel as one JSON parameter (D1's 100-parameter limit). */
export function insertSmtpLogs(db: Db, rows: NewSmtpLogRow[]) {
  return db.run(sql`
    INSERT OR IGNORE INTO smtp_logs
      (id, account_id, session_id, key_id, key_prefix, client_ip, tls, auth, mail_from, rcpt_to, size,
       outcome, reply_code, reply, email_id, created_at)
    SELECT j.value ->> 'id', j.value ->> 'accountId', j.value ->> 'sessionId', j.value ->> 'keyId',
           j.value ->> 'keyPrefix', j.value ->> 'clientIp', j.value ->> 'tls', j.value ->> 'auth',
           j.value ->> 'mailFrom', j.value ->> 'rcptTo', j.value ->> 'size', j.value ->> 'outcome',
           j.value ->> 'replyCode', j.value ->> 'reply', j.value ->> 'emailId', j.value ->> 'createdAt'
    FROM json_each(${JSON.stringify(rows)}) AS j`);
}

/** Rows of no account (unknown passwords) are kept this long, for operators. */
export const UNATTRIBUTED_RETENTION_MS = 7 * 86_400_000;

/**
 * Deletes up to `batchSize` logs older than their account's request-log retention (the same
 * setting covers both logs), or older than a week for rows of no account; answers how many went.
 * Both walk the (account_id, created_at) index.
 */
export async function deleteExpiredSmtpLogs(db: Db, now: number, batchSize: number): Promise<number> {
  const result = await db.run(expiredSmtpLogsDelete(now, batchSize));
  return result.meta.changes ?? 0;
}

/**
 * The statement of one batch (see above). `CROSS JOIN` keeps the workspaces the outer loop, as
 * SQLite never reorders one: joined plainly, its planner (which has no statistics) walks the whole
 * index and looks each row's workspace up, reading every log each minute.
 */
export const expiredSmtpLogsDelete = (now: number, batchSize: number): SQL => sql`
  DELETE FROM smtp_logs WHERE rowid IN (
    SELECT s.rowid FROM accounts a
    CROSS JOIN smtp_logs s ON s.account_id = a.id
      AND s.created_at < ${now} - a.request_log_retention_seconds * 1000
    LIMIT ${batchSize})
  OR rowid IN (
    SELECT rowid FROM smtp_logs WHERE account_id IS NULL AND created_at < ${now - UNATTRIBUTED_RETENTION_MS}
    LIMIT ${batchSize})`;
