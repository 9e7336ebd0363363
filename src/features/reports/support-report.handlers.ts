import { createRouter } from "../../lib/router";
import { supportReportRoute } from "./support-report.routes";
import { supportReport } from "./support-report.service";

export const supportReportRouter = createRouter().openapi(supportReportRoute, async (c) =>
  c.json(await supportReport(c.var.ctx, c.req.valid("query")), 200),
);
