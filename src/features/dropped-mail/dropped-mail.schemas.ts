import { z } from "@hono/zod-openapi";
import { DROP_REASONS } from "../../db/schema";
import { idPattern } from "../../lib/ids";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

const REASON =
  "`parse_failed` (not readable: not MIME, over 256 KiB of headers in all its parts, or a report part the reader could not read; `detail` says which), `own_address` (its sender is one of the workspace's inboxes or the service itself: our own mail coming back), `loop` (its X-Loop names one of them), `customer_blocked` (from a blocked customer), `auto_submitted` (an automatic answer that belongs to no ticket) or `no_sender` (no sender address to reply to).";

export const DroppedMailSchema = z
  .object({
    id: z.string().openapi({ example: "drp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    inbox_id: z.string(),
    reason: z.enum(DROP_REASONS).openapi({ description: REASON }),
    detail: z
      .string()
      .nullable()
      .openapi({ description: "For `parse_failed`: what the parser or the report reader said." }),
    mail_from: z
      .string()
      .openapi({ description: "The SMTP envelope sender (MAIL FROM); empty for a bounce." }),
    rcpt_to: z.string().openapi({ description: "The SMTP envelope recipient (RCPT TO) this copy was for." }),
    message_id: z.string().nullable().openapi({ description: "The mail's Message-ID, when it had one." }),
    size: z.number().int().openapi({ description: "The received message's size in bytes." }),
    created_at: z.string(),
  })
  .openapi("DroppedMail");

export const DroppedMailListSchema = standardListSchema(DroppedMailSchema, "DroppedMailList");

export const DroppedMailQuerySchema = offsetQuery(50).extend({
  inbox_id: z
    .string()
    .regex(new RegExp(idPattern("inb")), "must be an inbox id such as inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR")
    .optional()
    .openapi({ description: "Only mail received by this inbox." }),
  reason: z.enum(DROP_REASONS).optional().openapi({ description: "Only mail dropped for this reason." }),
});

export const DroppedMailParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "drp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
