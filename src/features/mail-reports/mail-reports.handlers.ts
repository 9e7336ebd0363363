import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { toMailReport } from "./mail-reports.dto";
import { listMailReports } from "./mail-reports.repo";
import { listMailReportsRoute, mailReportRawRoute } from "./mail-reports.routes";
import { mailReportRaw } from "./mail-reports.service";

export const mailReportsRouter = createRouter()
  .openapi(listMailReportsRoute, async (c) => {
    const { limit, offset, kind, email_id, recipient } = c.req.valid("query");
    const filter = { accountId: c.var.ctx.accountId, kind, emailId: email_id, recipient };
    const { rows, total } = await listMailReports(c.var.ctx.db, filter, limit, offset);
    return c.json(standardList(rows.map(toMailReport), total, { limit, offset }), 200);
  })
  .openapi(mailReportRawRoute, async (c) => {
    const raw = await mailReportRaw(c.var.ctx, c.req.valid("param").id);
    return c.body(raw.body, 200, {
      "Content-Type": "message/rfc822",
      "Content-Length": String(raw.size),
      "X-Content-Type-Options": "nosniff",
    });
  });
