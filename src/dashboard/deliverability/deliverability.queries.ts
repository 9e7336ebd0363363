import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailRecipients, emails } from "../../db/schema";
import { droppedMailQueries } from "../../features/dropped-mail/dropped-mail.repo";
import { type MailReportFilter, mailReportQueries } from "../../features/mail-reports/mail-reports.repo";
import { DAY_MS, type DayRow } from "./daily-rates";

/**
 * Recipients the email went out to: the transport took them (accepted, unknown), refused them at
 * once (rejected: a synchronous bounce) or took them and a report bounced them later. Pending and
 * deferred ones are not sent yet, so they count neither as sent nor in a rate.
 */
const SENT_STATES = ["accepted", "unknown", "rejected", "bounced"] as const;

/** Whether the recipient has a `bounces` row of this kind for this email; by the (account_id, email) index. */
const hasBounce = (kind: "hard" | "soft" | "complaint") =>
  sql`EXISTS (SELECT 1 FROM bounces b WHERE b.account_id = ${emailRecipients.accountId}
    AND b.email = ${emailRecipients.address} AND b.email_id = ${emailRecipients.emailId} AND b.kind = ${kind})`;

/**
 * Per UTC day since `since`: the recipients the workspace's emails of that day went out to, and how
 * many of them bounced (hard; soft and never hard) or complained, whenever the bounce came. A day
 * is the email's, not the bounce's: the rate is then the share of that day's mail that failed, and
 * every count comes from one range of emails_account_created led by account_id, each recipient
 * and its bounces found by index (`bounces` has no (account_id, created_at) index to range over).
 * Sync refusals (deliver.ts) and reports both land in `bounces`, so both count.
 * Counted on every page view: the rollups of issue 28 will replace this counting.
 */
export function dailyCountsQuery(db: Db, accountId: string, since: number) {
  // Inlined integer, so that SQLite divides as integers.
  const day = sql<number>`${emails.createdAt} / ${sql.raw(String(DAY_MS))}`;
  const hard = hasBounce("hard");
  return db
    .select({
      // Named: D1 keys a batch's rows by column name, and two unnamed sums read the same.
      day: day.as("day"),
      sent: count().as("sent"),
      hard: sql<number>`sum(${hard})`.as("hard"),
      soft: sql<number>`sum(NOT ${hard} AND ${hasBounce("soft")})`.as("soft"),
      complained: sql<number>`sum(${hasBounce("complaint")})`.as("complained"),
    })
    .from(emails)
    .innerJoin(
      emailRecipients,
      and(eq(emailRecipients.emailId, emails.id), eq(emailRecipients.accountId, emails.accountId)),
    )
    .where(
      and(
        eq(emails.accountId, accountId),
        gte(emails.createdAt, since),
        inArray(emailRecipients.state, [...SENT_STATES]),
      ),
    )
    .groupBy(day);
}

export const DROPPED_PAGE_SIZE = 20;

/**
 * Everything the Deliverability page shows, in one D1 batch: the daily counts, a page of the
 * reports (filtered) and a page of the dropped mail, with their exact totals.
 */
export async function deliverabilityPage(
  db: Db,
  input: { filter: MailReportFilter; since: number; limit: number; offset: number; droppedOffset: number },
) {
  const reports = mailReportQueries(db, input.filter, input.limit, input.offset);
  const dropped = droppedMailQueries(
    db,
    { accountId: input.filter.accountId },
    DROPPED_PAGE_SIZE,
    input.droppedOffset,
  );
  const [days, reportRows, reportTotal, droppedRows, droppedTotal] = await db.batch([
    dailyCountsQuery(db, input.filter.accountId, input.since),
    reports.page,
    reports.total,
    dropped.page,
    dropped.total,
  ]);
  return {
    days: days as DayRow[],
    reports: { rows: reportRows, total: reportTotal[0]?.total ?? 0 },
    dropped: { rows: droppedRows, total: droppedTotal[0]?.total ?? 0 },
  };
}
