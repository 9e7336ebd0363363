import { and, count, desc, eq, getTableColumns, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountUsage, emailRecipients, emails, emailTags } from "../../db/schema";
import { mayActSql } from "../../lib/workspace-gate";
import { accountSeqOf } from "./email-keys";
import { tagsJsonOf } from "./email-tags";
import { shownRecipientResponse } from "./shared-response";

export type EmailRow = typeof emails.$inferSelect;
/** The columns of an email as the API shows it: its row and its tags (JSON), in one query. */
const shownEmail = { ...getTableColumns(emails), tags: tagsJsonOf(emails.seq) };
export type ShownEmail = EmailRow & { tags: string };
/** An email to insert: its row numbers (seq, account_seq) are the database's to give. */
export type NewEmailRow = Omit<typeof emails.$inferInsert, "seq" | "accountSeq">;

export interface EmailFilter {
  accountId: string;
  status?: EmailRow["status"] | undefined;
  to?: string | undefined;
  tag?: { name: string; value?: string | undefined } | undefined;
}

/** The queries behind a list page, newest first; each filter walks its own index. */
export function emailQueries(db: Db, filter: EmailFilter, limit: number, offset: number) {
  const status = filter.status ? eq(emails.status, filter.status) : undefined;
  if (filter.to) {
    const where = and(
      eq(emailRecipients.accountSeq, accountSeqOf(filter.accountId)),
      eq(emailRecipients.address, filter.to.toLowerCase()),
      status,
    );
    const from = () =>
      db
        .select({ email: shownEmail })
        .from(emailRecipients)
        .innerJoin(emails, eq(emails.seq, emailRecipients.emailSeq));
    return {
      page: from()
        .where(where)
        .orderBy(desc(emailRecipients.createdAt), desc(emailRecipients.emailSeq))
        .limit(limit)
        .offset(offset),
      total: db
        .select({ total: count() })
        .from(emailRecipients)
        .innerJoin(emails, eq(emails.seq, emailRecipients.emailSeq))
        .where(where),
    };
  }
  if (filter.tag) {
    const where = and(
      eq(emailTags.accountSeq, accountSeqOf(filter.accountId)),
      eq(emailTags.name, filter.tag.name),
      filter.tag.value === undefined ? undefined : eq(emailTags.value, filter.tag.value),
      status,
    );
    const from = () =>
      db.select({ email: shownEmail }).from(emailTags).innerJoin(emails, eq(emails.seq, emailTags.emailSeq));
    return {
      page: from()
        .where(where)
        .orderBy(desc(emailTags.createdAt), desc(emailTags.emailSeq))
        .limit(limit)
        .offset(offset),
      total: db
        .select({ total: count() })
        .from(emailTags)
        .innerJoin(emails, eq(emails.seq, emailTags.emailSeq))
        .where(where),
    };
  }
  const where = and(eq(emails.accountSeq, accountSeqOf(filter.accountId)), status);
  return {
    page: db
      .select({ email: shownEmail })
      .from(emails)
      .where(where)
      .orderBy(desc(emails.createdAt), desc(emails.seq))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(emails).where(where),
  };
}

export async function listEmails(db: Db, filter: EmailFilter, limit: number, offset: number) {
  const { page, total } = emailQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows: rows.map((r) => r.email), total: totals[0]?.total ?? 0 };
}

/** Scheduled emails, soonest first. */
export function scheduledQueries(db: Db, accountId: string, limit: number, offset: number) {
  const where = and(eq(emails.accountSeq, accountSeqOf(accountId)), eq(emails.status, "scheduled"));
  return {
    page: db
      .select(shownEmail)
      .from(emails)
      .where(where)
      .orderBy(emails.scheduledAt, emails.seq)
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(emails).where(where),
  };
}

export async function findEmail(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(emails)
    .where(and(eq(emails.accountId, accountId), eq(emails.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** One email of the workspace with its tags and recipients' delivery states, in one round trip. */
export async function findEmailWithRecipients(db: Db, accountId: string, id: string) {
  const [rows, recipients] = await db.batch([
    db
      .select(shownEmail)
      .from(emails)
      .where(and(eq(emails.accountId, accountId), eq(emails.id, id)))
      .limit(1),
    db
      .select({
        address: emailRecipients.address,
        state: emailRecipients.state,
        response: shownRecipientResponse,
      })
      .from(emailRecipients)
      .where(
        eq(
          emailRecipients.emailSeq,
          sql`(SELECT seq FROM emails WHERE id = ${id} AND account_id = ${accountId})`,
        ),
      )
      .orderBy(emailRecipients.address),
  ]);
  const row = rows[0];
  return row ? { row, recipients } : null;
}

/** Moves a scheduled (or queued) email to a new time, only while nothing has picked it up. */
export async function rescheduleEmail(db: Db, accountId: string, id: string, at: number, now: number) {
  const rows = await db
    .update(emails)
    .set({ scheduledAt: at, status: "scheduled", lastEvent: "scheduled", lastEventAt: now, updatedAt: now })
    .where(
      and(
        eq(emails.accountId, accountId),
        eq(emails.id, id),
        inArray(emails.status, ["scheduled", "queued"]),
      ),
    )
    .returning(shownEmail);
  return rows[0] ?? null;
}

/**
 * The bytes an email keeps in R2 once it will never be built (again): its own attachments and a
 * message an earlier attempt built. What was reserved beyond that for its message is given back.
 */
const keptBytes = sql`(coalesce(emails.size, 0) + (
  SELECT coalesce(sum(j.value ->> 'size'), 0) FROM json_each(emails.attachments) AS j
  WHERE j.value ->> 'key' LIKE 'emails/' || emails.id || '/%'))`;

/** Cancels an email nobody has picked up, giving back the storage reserved for its unbuilt message. */
export async function cancelEmail(db: Db, accountId: string, id: string, now: number) {
  const cancellable = and(
    eq(emails.accountId, accountId),
    eq(emails.id, id),
    inArray(emails.status, ["scheduled", "queued"]),
  );
  const [, rows] = await db.batch([
    db
      .update(accountUsage)
      .set({
        storageBytes: sql`max(storage_bytes - coalesce((
          SELECT emails.stored_bytes - ${keptBytes} FROM emails
          WHERE emails.account_id = ${accountId} AND emails.id = ${id} AND emails.status IN ('scheduled', 'queued')
        ), 0), 0)`,
      })
      .where(eq(accountUsage.accountId, accountId)),
    db
      .update(emails)
      .set({
        status: "cancelled",
        lastEvent: "cancelled",
        lastEventAt: now,
        updatedAt: now,
        storedBytes: keptBytes,
      })
      .where(cancellable)
      .returning(shownEmail),
  ]);
  return rows[0] ?? null;
}

/** Due emails the queue may not carry: scheduled ones whose time came, queued ones nobody took. */
export async function dueEmailIds(
  db: Db,
  now: number,
  staleBefore: number,
  limit: number,
): Promise<string[]> {
  return (await dueEmails(db, now, staleBefore, limit)).map((r) => r.id);
}

/** The emails `dueEmailIds` finds, each with its workspace (what its queue message carries). */
export async function dueEmails(
  db: Db,
  now: number,
  staleBefore: number,
  limit: number,
): Promise<Array<{ id: string; accountId: string }>> {
  const due: SQL | undefined = or(
    // A suspended workspace's scheduled emails wait, unqueued, until it is reinstated.
    and(eq(emails.status, "scheduled"), lte(emails.scheduledAt, now), mayActSql(emails.accountId)),
    and(
      eq(emails.status, "queued"),
      lte(emails.updatedAt, staleBefore),
      lte(sql`coalesce(${emails.nextAttemptAt}, 0)`, now),
    ),
  );
  return db.select({ id: emails.id, accountId: emails.accountId }).from(emails).where(due).limit(limit);
}
