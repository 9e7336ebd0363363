import { defineRoute, jsonResponse } from "../../lib/openapi";
import { SupportReportQuerySchema, SupportReportSchema } from "./support-report.schemas";

export const supportReportRoute = defineRoute("read", {
  method: "get",
  path: "/v1/reports/support",
  tags: ["Reports"],
  summary: "Get the support report",
  description:
    "Tickets created, resolved and reopened, replies sent, first-response and resolution times (median and 90th percentile, DDSketch with 1% relative accuracy) and satisfaction (CSAT, NPS) per day or week, with totals. Read from daily rollups kept as tickets, replies and survey answers are written, so the cost follows the number of days, not of tickets. Times are UTC. Filter by `inbox_id`, `assignee_id` or both.",
  request: { query: SupportReportQuerySchema },
  responses: { 200: jsonResponse(SupportReportSchema, "The report.") },
});
