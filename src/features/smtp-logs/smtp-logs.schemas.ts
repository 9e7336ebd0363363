import { z } from "@hono/zod-openapi";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

export const SMTP_OUTCOMES = ["accepted", "deferred", "rejected", "auth_failed", "closed"] as const;
const AUTH_RESULTS = ["none", "succeeded", "failed"] as const;

const outcomeDescription =
  "`accepted` (250, `email_id` set), `deferred` (4xx: the client keeps the message and retries), `rejected` (5xx), `auth_failed` (535), `closed` (the session ended without a message).";

export const SmtpLogSchema = z
  .object({
    id: z.string().openapi({ example: "smtp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    session_id: z.string().openapi({ description: "Shared by the rows of one SMTP connection." }),
    client_ip: z.string(),
    tls: z.string().nullable().openapi({ description: "TLS protocol of the session, null when plaintext." }),
    auth: z.enum(AUTH_RESULTS),
    key_id: z.string().nullable(),
    key_prefix: z.string().nullable(),
    mail_from: z.string().nullable(),
    rcpt_to: z.array(z.string()).openapi({ description: "Envelope recipients, Bcc included." }),
    size: z.number().int().nullable().openapi({ description: "Bytes of the message received, if any." }),
    outcome: z.enum(SMTP_OUTCOMES).openapi({ description: outcomeDescription }),
    reply_code: z.number().int(),
    reply: z.string().openapi({ description: "The SMTP reply the client got." }),
    email_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("SmtpLog");

export const SmtpLogListSchema = standardListSchema(SmtpLogSchema, "SmtpLogList");
export const SmtpLogQuerySchema = offsetQuery(50);

const SmtpLogRecordSchema = z.object({
  session_id: z.string().min(1).max(64),
  client_ip: z.string().min(1).max(64),
  tls: z.string().max(32).nullable(),
  auth: z.enum(AUTH_RESULTS),
  key_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .openapi({
      description:
        "SHA-256 (hex) of the password presented at AUTH. Never the password: the service only compares it with the stored key hashes to attribute the row.",
    }),
  mail_from: z.string().max(320).nullable(),
  rcpt_to: z.array(z.string().max(320)).max(1000),
  size: z.number().int().min(0).nullable(),
  outcome: z.enum(SMTP_OUTCOMES),
  reply_code: z.number().int().min(200).max(599),
  reply: z.string().max(1000),
  email_id: z.string().max(64).nullable(),
  at: z.iso.datetime({ offset: true }).openapi({ description: "When it happened, per the relay." }),
});

export const RecordSmtpLogsBodySchema = z
  .object({ logs: z.array(SmtpLogRecordSchema).min(1).max(100) })
  .openapi("RecordSmtpLogsRequest");

export type SmtpLogRecord = z.infer<typeof SmtpLogRecordSchema>;
