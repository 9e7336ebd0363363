import type { Db } from "../../db/client";
import { droppedMailQueries } from "../../features/dropped-mail/dropped-mail.repo";
import { type MailReportFilter, mailReportQueries } from "../../features/mail-reports/mail-reports.repo";

export const DROPPED_PAGE_SIZE = 20;

/**
 * The Deliverability page's lists, in one D1 batch: a page of the reports (filtered) and a page
 * of the dropped mail, with their exact totals. (Its rates come from the email report.)
 */
export async function deliverabilityPage(
  db: Db,
  input: { filter: MailReportFilter; limit: number; offset: number; droppedOffset: number },
) {
  const reports = mailReportQueries(db, input.filter, input.limit, input.offset);
  const dropped = droppedMailQueries(
    db,
    { accountId: input.filter.accountId },
    DROPPED_PAGE_SIZE,
    input.droppedOffset,
  );
  const [reportRows, reportTotal, droppedRows, droppedTotal] = await db.batch([
    reports.page,
    reports.total,
    dropped.page,
    dropped.total,
  ]);
  return {
    reports: { rows: reportRows, total: reportTotal[0]?.total ?? 0 },
    dropped: { rows: droppedRows, total: droppedTotal[0]?.total ?? 0 },
  };
}
