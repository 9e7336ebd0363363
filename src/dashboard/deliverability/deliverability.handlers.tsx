import { findDroppedMail } from "../../features/dropped-mail/dropped-mail.repo";
import { droppedMailRaw } from "../../features/dropped-mail/dropped-mail.service";
import { findMailReport } from "../../features/mail-reports/mail-reports.repo";
import { mailReportRaw } from "../../features/mail-reports/mail-reports.service";
import { notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { dailyTable, firstDayStart } from "./daily-rates";
import { DeliverabilityPage } from "./deliverability.page";
import { DROPPED_PAGE_SIZE, deliverabilityPage } from "./deliverability.queries";
import {
  deliverabilityPageRoute,
  droppedMailPageRoute,
  droppedMailRawRoute,
  mailReportPageRoute,
  mailReportRawRoute,
} from "./deliverability.routes";
import { DroppedMailPage, MailReportPage } from "./deliverability-detail.page";
import { rawExcerpt, textAttachment } from "./raw-message";

const PAGE = { title: "Deliverability", nav: "Deliverability" } as const;

/** /dashboard/deliverability and its detail and download routes: read by everyone signed in. */
export const deliverabilityRouter = createRouter()
  .openapi(deliverabilityPageRoute, async (c) => {
    const { db, accountId, now } = c.var.ctx;
    const filters = c.req.valid("query");
    const { days, reports, dropped } = await deliverabilityPage(db, {
      filter: { accountId, kind: filters.kind, emailId: filters.email_id, recipient: filters.recipient },
      since: firstDayStart(now),
      limit: filters.limit,
      offset: filters.offset,
      droppedOffset: filters.dropped_offset,
    });
    const table = dailyTable(days, now);
    return renderPage(
      c,
      PAGE,
      <DeliverabilityPage
        days={table.days}
        total={table.total}
        reports={reports}
        dropped={{ ...dropped, pageSize: DROPPED_PAGE_SIZE }}
        filters={filters}
      />,
    );
  })
  .openapi(mailReportPageRoute, async (c) => {
    const { db, accountId, env } = c.var.ctx;
    const { id } = c.req.valid("param");
    const report = await findMailReport(db, accountId, id);
    if (!report) throw notFound(`Mail report ${id}`);
    const raw = await rawExcerpt(env.FILES, report.rawKey);
    return renderPage(c, { ...PAGE, title: "Mail report" }, <MailReportPage report={report} raw={raw} />);
  })
  .openapi(mailReportRawRoute, async (c) => {
    const { id } = c.req.valid("param");
    return textAttachment(await mailReportRaw(c.var.ctx, id), `${id}.txt`);
  })
  .openapi(droppedMailPageRoute, async (c) => {
    const { db, accountId, env } = c.var.ctx;
    const { id } = c.req.valid("param");
    const dropped = await findDroppedMail(db, accountId, id);
    if (!dropped) throw notFound(`Dropped mail ${id}`);
    const raw = await rawExcerpt(env.FILES, dropped.rawKey);
    return renderPage(c, { ...PAGE, title: "Dropped mail" }, <DroppedMailPage dropped={dropped} raw={raw} />);
  })
  .openapi(droppedMailRawRoute, async (c) => {
    const { id } = c.req.valid("param");
    return textAttachment(await droppedMailRaw(c.var.ctx, id), `${id}.txt`);
  });
