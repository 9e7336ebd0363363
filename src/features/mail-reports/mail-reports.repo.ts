import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type MAIL_REPORT_KINDS, mailReports } from "../../db/schema";

export type MailReportRow = typeof mailReports.$inferSelect;
export type MailReportKind = (typeof MAIL_REPORT_KINDS)[number];

export interface MailReportFilter {
  accountId: string;
  kind?: MailReportKind | undefined;
  emailId?: string | undefined;
  /** A recipient's address, lowercase (as reports store them). */
  recipient?: string | undefined;
}

function whereOf(filter: MailReportFilter): SQL | undefined {
  return and(
    eq(mailReports.accountId, filter.accountId),
    filter.kind === undefined ? undefined : eq(mailReports.kind, filter.kind),
    filter.emailId === undefined ? undefined : eq(mailReports.emailId, filter.emailId),
    filter.recipient === undefined ? undefined : eq(mailReports.recipient, filter.recipient),
  );
}

/**
 * The queries behind a list page, newest first, exposed so tests can check their plans: each
 * filter has an (account_id, filter, created_at) index, whose implicit rowid breaks ties.
 */
export function mailReportQueries(db: Db, filter: MailReportFilter, limit: number, offset: number) {
  const where = whereOf(filter);
  return {
    page: db
      .select()
      .from(mailReports)
      .where(where)
      .orderBy(desc(mailReports.createdAt), desc(mailReports.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(mailReports).where(where),
  };
}

/** A page of the workspace's reports and the exact filtered total, in one round trip. */
export async function listMailReports(db: Db, filter: MailReportFilter, limit: number, offset: number) {
  const { page, total } = mailReportQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** The workspace's report with this public id (`rpt_...`); another workspace's is not found. */
export async function findMailReport(db: Db, accountId: string, publicId: string) {
  const rows = await db
    .select()
    .from(mailReports)
    .where(and(eq(mailReports.publicId, publicId), eq(mailReports.accountId, accountId)))
    .limit(1);
  return rows[0] ?? null;
}
