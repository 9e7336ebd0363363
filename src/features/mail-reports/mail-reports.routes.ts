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
    "Bounce and complaint reports the workspace received, newest first, with what each changed (`action`). Kept 30 days. A report to a bounce address (`bounces+<token>@…`) belongs to the workspace of the email its token names. A report to one of the workspace's inbox addresses belongs to that workspace whether or not it names one of its emails: one that names none (or another workspace's) is listed with `email_id: null` and `action: ignored`, and changes nothing. Mail to an inbox address is taken for a report only beyond doubt: a `multipart/report` (`report-type=delivery-status` or `feedback-report`) with its report part; or a failure notice in prose, or report parts in another container, sent by a mail server (a null envelope sender, or `MAILER-DAEMON`, `postmaster` and the like as the envelope sender's or From's local part; never a display name alone) that names one of the workspace's emails by the Message-ID of the original it returns. Anything else to an inbox is a customer's mail. Reports are read in time linear in their size: at most 100 recipients, 64 KiB of a notice's text, 128 KiB of a report part's fields.",
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
