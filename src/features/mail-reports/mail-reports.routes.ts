import { z } from "@hono/zod-openapi";
import { defineRoute, jsonResponse } from "../../lib/openapi";
import { MailReportListSchema, MailReportParamsSchema, MailReportQuerySchema } from "./mail-reports.schemas";

const tags = ["Emails"];

export const listMailReportsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/mail-reports",
  tags,
  summary: "List bounce and complaint reports",
  description:
    "Bounce and complaint reports received about the workspace's emails, newest first, with what each changed (`action`). Kept 30 days. A report that names no email of any workspace belongs to none and is not listed.",
  request: { query: MailReportQuerySchema },
  responses: { 200: jsonResponse(MailReportListSchema, "A page of reports.") },
});

export const mailReportRawRoute = defineRoute("read", {
  method: "get",
  path: "/v1/mail-reports/{id}/raw",
  tags,
  summary: "Get a report's received message",
  description:
    "The report as the service received it, byte for byte (`message/rfc822`). 404 (`raw_not_found`) once its bytes are gone.",
  request: { params: MailReportParamsSchema },
  responses: {
    200: { description: "The received report.", content: { "message/rfc822": { schema: z.string() } } },
  },
});
