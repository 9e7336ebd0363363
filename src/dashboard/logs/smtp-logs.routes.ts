import { z } from "@hono/zod-openapi";
import { SMTP_OUTCOMES } from "../../features/smtp-logs/smtp-logs.schemas";
import { offsetQuery } from "../../lib/pagination";
import { dashboardRoute } from "../routes";
import { detailParams, filterField } from "./filter-fields";

export const SmtpLogFiltersSchema = offsetQuery(50).extend({
  outcome: filterField(z.enum(SMTP_OUTCOMES), "Only rows with this outcome."),
});

export const smtpLogsPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/smtp-logs",
  summary: "SMTP logs",
  description:
    "What the SMTP relay saw for the workspace, newest first, as GET /v1/accounts/{id}/smtp-logs lists it: time, outcome, reply code, sender, number of recipients, size, client IP, key prefix and the reply the client got (the reason, when refused). Filter: outcome (the API has none). Every signed-in person may read it.",
  request: { query: SmtpLogFiltersSchema },
});

export const smtpLogPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/smtp-logs/{id}",
  summary: "SMTP log entry",
  description:
    "One SMTP log row with every field the API returns for it (the recipients listed in full). Another workspace's id is a 404.",
  request: { params: detailParams("smtp_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});
