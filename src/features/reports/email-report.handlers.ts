import { createRouter } from "../../lib/router";
import { emailReportRoute } from "./email-report.routes";
import { emailReport } from "./email-report.service";

export const emailReportRouter = createRouter().openapi(emailReportRoute, async (c) => {
  return c.json(await emailReport(c.var.ctx, c.req.valid("query")), 200);
});
