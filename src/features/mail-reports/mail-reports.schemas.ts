import { z } from "@hono/zod-openapi";
import { BOUNCE_TYPES, MAIL_REPORT_ACTIONS, MAIL_REPORT_KINDS } from "../../db/schema";
import { idPattern } from "../../lib/ids";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { emailAddress } from "../../mail/address-schema";

const KIND =
  "`bounce` (a delivery status notification: RFC 3464 or a plain notice the service understood), `complaint` (an ARF feedback report, RFC 5965) or `unsupported` (mail to a bounce address the service could not read as either; `diagnostic` says why when the message itself could not be read).";
const ACTION =
  "What the service did about `recipient`: `suppressed` (the address is suppressed after this report: a hard bounce, a complaint, the third soft bounce within 7 days, or it already was), `counted` (a soft bounce recorded; the address stays deliverable) or `ignored` (nothing changed: the report names no email of this workspace (`email_id` null: a report an inbox received about mail the service did not send for it) or no recipient of it, is informational, or unsupported).";

export const MailReportSchema = z
  .object({
    id: z.string().openapi({ example: "rpt_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    kind: z.enum(MAIL_REPORT_KINDS).openapi({ description: KIND }),
    email_id: z.string().nullable().openapi({ description: "The email the report is about, when known." }),
    recipient: z.string().nullable().openapi({
      description: "The recipient the report acted on, else the first it names; null when it names none.",
    }),
    severity: z.enum(BOUNCE_TYPES).nullable().openapi({
      description:
        "`hard` (permanent: 5.x.x, unknown user or domain) or `soft` (temporary: 4.x.x, mailbox full, delayed); null for complaints and reports without a verdict.",
    }),
    status: z.string().nullable().openapi({ description: "The enhanced status code.", example: "5.1.1" }),
    reply_code: z.string().nullable().openapi({ description: "The SMTP reply code.", example: "550" }),
    diagnostic: z.string().nullable().openapi({
      description:
        "What the report says happened, one line. For an `unsupported` report the service could not read at all: `Unreadable: ` and the reason.",
    }),
    reporting_mta: z.string().nullable().openapi({
      description: "The server that wrote the report, when it says.",
      example: "mx.example.net",
    }),
    action: z.enum(MAIL_REPORT_ACTIONS).openapi({ description: ACTION }),
    created_at: z.string(),
  })
  .openapi("MailReport");

export const MailReportListSchema = standardListSchema(MailReportSchema, "MailReportList");

export const MailReportQuerySchema = offsetQuery(50).extend({
  kind: z.enum(MAIL_REPORT_KINDS).optional().openapi({ description: "Only reports of this kind." }),
  email_id: z
    .string()
    .regex(new RegExp(idPattern("eml")), "must be an email id such as eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR")
    .optional()
    .openapi({ description: "Only reports about this email." }),
  recipient: emailAddress("Only reports about this recipient (any case).").optional(),
});

export const MailReportParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "rpt_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
