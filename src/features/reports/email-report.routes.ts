import { defineRoute, jsonResponse } from "../../lib/openapi";
import { EmailReportQuerySchema, EmailReportSchema } from "./email-report.schemas";

export const emailReportRoute = defineRoute("read", {
  method: "get",
  path: "/v1/reports/email",
  tags: ["Reports"],
  summary: "Get the email report",
  description:
    "Counts of the workspace's emails per interval (`day`, or `week` starting Monday 00:00 UTC) with the period's totals and rates over `delivered`. Each fact counts on the UTC day it happened (an email accepted on Monday and opened on Tuesday counts in both days). Read from daily rollups kept as mail moves, so a report costs the same whatever the number of emails. `from`/`to` default to the last 30 days; at most 366 intervals; `to` before `from`, an unreadable date, an unknown `interval` or a malformed `inbox_id`/`tag`/`template_id`/`template_version_id` is a 400. Filters: `inbox_id`, `tag`, `template_id` or `template_version_id` (the emails built from that template, whichever version, or from that published version; an email sent without a template is in neither, as an untagged one is under no tag); one filter at a time (two together are a 400: each email is counted per filter, not per pair of them). The service's own mail (sign-in links, invitations) is not counted.",
  request: { query: EmailReportQuerySchema },
  responses: { 200: jsonResponse(EmailReportSchema, "The report.") },
});
