import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { emails } from "../../db/schema";
import { keptFromSql } from "../../lib/email-retention";
import { type ArchivedEmail, archivedEmailColumns, archivedEmailOf } from "./archive-lines";

/**
 * A day in milliseconds, written into the statements: a bound JavaScript number reaches SQLite as
 * a real, and `created_at / ?` would then give a fraction of a day, not the day.
 */
const DAY = sql.raw("86400000");

/** Emails past nothing but history: never one still scheduled, queued or being sent. */
export const FINISHED = ["sent", "delivered", "bounced", "failed", "cancelled"] as const;
const finished = sql.raw(FINISHED.map((status) => `'${status}'`).join(", "));

/** A workspace with emails due for archiving, and where its kept history starts. */
export interface DueWorkspace {
  accountId: string;
  accountSeq: number;
  keptFrom: number;
}

/**
 * The shard's workspaces holding a finished email from before their retention's start: one seek
 * per workspace and finished status into `emails_account_status_created`.
 */
export function dueWorkspacesQuery(now: number): SQL {
  const keptFrom = keptFromSql(now);
  return sql`
    SELECT a.id AS accountId, a.seq AS accountSeq, ${keptFrom} AS keptFrom FROM accounts a
    WHERE a.seq IS NOT NULL AND EXISTS (
      SELECT 1 FROM emails e WHERE e.account_seq = a.seq AND e.status IN (${finished})
        AND e.created_at < ${keptFrom})`;
}

export const dueWorkspaces = (db: Db, now: number): Promise<DueWorkspace[]> =>
  db.all<DueWorkspace>(dueWorkspacesQuery(now));

/** The oldest due email's day: the one a part archives. The same inside one transaction. */
const dueDay = (ws: DueWorkspace): SQL => sql`(
  SELECT created_at / ${DAY} FROM emails
  WHERE account_seq = ${ws.accountSeq} AND status IN (${finished}) AND created_at < ${ws.keptFrom}
  ORDER BY created_at LIMIT 1)`;

export interface ClaimedPart {
  day: number;
  part: number;
  token: string;
  rows: ArchivedEmail[];
}

/**
 * Claims the next part of the oldest day due (its number taken with a `writing` row, so a run
 * that overlaps this one claims another or fails on the key) and reads that day's first `size`
 * finished emails, in one transaction. Null when nothing is due.
 */
export async function claimPart(
  db: Db,
  ws: DueWorkspace,
  size: number,
  now: number,
): Promise<ClaimedPart | null> {
  const token = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const [claimed, read] = await runBatch(db, claimStatements(db, ws, size, now, token));
  const part = claimed?.results[0] as { day: number; part: number } | undefined;
  const rows = (read?.results ?? []) as Array<Record<string, unknown>>;
  return part ? { day: part.day, part: part.part, token, rows: rows.map(archivedEmailOf) } : null;
}

/** The claim and the read of `claimPart`: the oldest due day's next part, and its emails. */
export function claimStatements(db: Db, ws: DueWorkspace, size: number, now: number, token: string) {
  const day = dueDay(ws);
  return [
    sql`
      INSERT INTO email_archive_parts (account_id, day, part, state, token, created_at)
      SELECT ${ws.accountId}, d.day, coalesce((SELECT max(part) FROM email_archive_parts p
        WHERE p.account_id = ${ws.accountId} AND p.day = d.day), 0) + 1, 'writing', ${token}, ${now}
      FROM (SELECT ${day} AS day) d WHERE d.day IS NOT NULL
      RETURNING day, part`,
    db
      .select(archivedEmailColumns)
      .from(emails)
      .where(
        and(
          eq(emails.accountSeq, ws.accountSeq),
          gte(emails.createdAt, sql`${day} * ${DAY}`),
          lt(emails.createdAt, sql`min((${day} + 1) * ${DAY}, ${ws.keptFrom})`),
          inArray(emails.status, [...FINISHED]),
        ),
      )
      .orderBy(asc(emails.createdAt), asc(emails.seq))
      .limit(size),
  ];
}

export interface WrittenPart {
  accountId: string;
  accountSeq: number;
  day: number;
  part: number;
  token: string;
  bytes: number;
  etag: string;
  seqs: number[];
}

/**
 * One transaction: the part becomes `archived`, its day's totals grow, the workspace's storage
 * counts the archive instead of the emails, ticket replies keep their email's outcome, and the
 * emails go (their recipients, tags and events with them, by foreign-key cascade). Every statement after the first acts only if that first one
 * moved this run's claim: a claim swept as dead meanwhile archives nothing and deletes nothing.
 * Answers whether it committed.
 */
export async function commitPart(db: Db, part: WrittenPart, now: number): Promise<boolean> {
  const seqs = JSON.stringify(part.seqs);
  const ours = sql`EXISTS (SELECT 1 FROM email_archive_parts WHERE account_id = ${part.accountId}
    AND day = ${part.day} AND part = ${part.part} AND token = ${part.token} AND state = 'archived')`;
  const partEmails = sql`SELECT value FROM json_each(${seqs})`;
  const [moved] = await runBatch(db, [
    sql`UPDATE email_archive_parts SET state = 'archived', emails = ${part.seqs.length},
      bytes = ${part.bytes}, etag = ${part.etag}
      WHERE account_id = ${part.accountId} AND day = ${part.day} AND part = ${part.part}
        AND token = ${part.token} AND state = 'writing'`,
    sql`INSERT INTO email_archives (account_id, day, parts, emails, bytes, created_at, updated_at)
      SELECT ${part.accountId}, ${part.day}, 1, ${part.seqs.length}, ${part.bytes}, ${now}, ${now} WHERE ${ours}
      ON CONFLICT (account_id, day) DO UPDATE SET parts = parts + 1, emails = emails + excluded.emails,
        bytes = bytes + excluded.bytes, updated_at = excluded.updated_at`,
    // The emails' own bytes leave storage as they are deleted (trigger emails_storage_delete).
    sql`UPDATE account_usage SET storage_bytes = storage_bytes + ${part.bytes}
      WHERE account_id = ${part.accountId} AND ${ours}`,
    // A ticket reply shows its email's outcome while the email exists; from now on its own row says it.
    sql`UPDATE messages SET status = (SELECT CASE
        WHEN e.status IN ('sent', 'delivered') THEN 'sent' WHEN e.status IN ('failed', 'bounced', 'cancelled') THEN 'failed'
        ELSE messages.status END FROM emails e WHERE e.id = messages.email_id)
      WHERE account_id = ${part.accountId} AND email_id IN (
        SELECT id FROM emails WHERE seq IN (${partEmails}) AND account_seq = ${part.accountSeq} AND source = 'ticket')
        AND ${ours}`,
    sql`DELETE FROM emails WHERE seq IN (${partEmails}) AND account_seq = ${part.accountSeq} AND ${ours}`,
  ]);
  return (moved?.meta.changes ?? 0) === 1;
}

/** Gives a claim up (its object could not be written): its number is free for the next run. */
export async function releasePart(db: Db, accountId: string, day: number, part: number, token: string) {
  await db.run(sql`DELETE FROM email_archive_parts WHERE account_id = ${accountId} AND day = ${day}
    AND part = ${part} AND token = ${token} AND state = 'writing'`);
}
