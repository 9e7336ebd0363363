import { findDroppedMail } from "../../features/dropped-mail/dropped-mail.repo";
import { droppedMailRaw } from "../../features/dropped-mail/dropped-mail.service";
import { findMailReport } from "../../features/mail-reports/mail-reports.repo";
import { mailReportRaw } from "../../features/mail-reports/mail-reports.service";
import { emailReport } from "../../features/reports/email-report.service";
import { notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { periodBounds } from "../../ui/charts/period-switch";
import { renderPage } from "../page";
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
import { RATE_DAYS } from "./rate-charts";
import { rawExcerpt, textAttachment } from "./raw-message";

const PAGE = { title: "Deliverability", nav: "Deliverability" } as const;

/** /dashboard/deliverability and its detail and download routes: read by everyone signed in. */
export const deliverabilityRouter = createRouter()
  .openapi(deliverabilityPageRoute, async (c) => {
    const { ctx } = c.var;
    const { db, accountId, now } = ctx;
    const filters = c.req.valid("query");
    const [{ reports, dropped }, rates] = await Promise.all([
      deliverabilityPage(db, {
        filter: { accountId, kind: filters.kind, emailId: filters.email_id, recipient: filters.recipient },
        limit: filters.limit,
        offset: filters.offset,
        droppedOffset: filters.dropped_offset,
      }),
      // The rates from the email report's rollups, as the API gives them for the same days.
      emailReport(ctx, { ...periodBounds(RATE_DAYS, now), interval: "day" }, now),
    ]);
    return renderPage(
      c,
      PAGE,
      <DeliverabilityPage
        rates={rates}
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
