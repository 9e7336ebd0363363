import { z } from "@hono/zod-openapi";
import { namedCountedListSchema, offsetQuery, standardListSchema } from "../../lib/pagination";
import { parseAddress } from "../../mail/address";
import { CustomerName } from "../customers/customers.schemas";
import { attachmentFields } from "../emails/attachment.schemas";
import { MessageBodies, TicketStatus, TicketSubject } from "../tickets/tickets.schemas";

export const AttachmentSchema = z
  .object({
    id: z.string(),
    filename: z.string(),
    content_type: z.string(),
    size: z.number().int(),
    content_id: z.string().nullable().openapi({
      description:
        "An inline part's Content-ID without angle brackets: the HTML body shows it as `cid:<content_id>`. Null for an ordinary attachment.",
    }),
  })
  .openapi("MessageAttachment");

export const MessageSchema = z
  .object({
    id: z.string().openapi({ example: "msg_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    ticket_id: z.string(),
    type: z.enum(["customer", "reply", "note"]),
    direction: z.enum(["inbound", "outbound", "internal"]),
    author: z.object({ type: z.enum(["customer", "user", "api"]), id: z.string().nullable() }),
    from: z.string().nullable(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    subject: z.string().nullable(),
    body_text: z.string().nullable().openapi({
      description:
        "The whole text. For an emailed message: its text part as received, quoted history included.",
    }),
    body_html: z.string().nullable().openapi({
      description:
        "For an emailed message: its HTML part exactly as received, not sanitized: escape or sanitize it before display.",
    }),
    stripped_text: z.string().nullable().openapi({
      description:
        'For a message that came in by email: the new text only, what to display, with the quoted history below the reply ("On … wrote:", Outlook\'s "From: … Sent:" block, trailing `>` lines) folded away; taken from the HTML when there is no text part. `body_text`, `body_html` and GET /v1/messages/{id}/raw keep everything. Null for other messages.',
    }),
    auto_submitted: z.boolean().openapi({
      description:
        "Sent by a machine (an out-of-office or other automatic answer: `Auto-Submitted` other than `no`, `Precedence: bulk|list|junk|auto_reply`, `X-Autoreply`, `X-Autorespond`, `X-Auto-Response-Suppress` with `All`, `OOF` or `AutoReply`, a vacation program's `X-Mailer`, a delivery report). Nothing answers such a message automatically; receivers of `message.created` should not either.",
    }),
    is_draft: z.boolean(),
    status: z.enum(["draft", "queued", "sent", "failed", "received"]),
    attachments: z.array(AttachmentSchema),
    email_id: z
      .string()
      .nullable()
      .openapi({ description: "The email that carried a reply (see /v1/emails)." }),
    email_message_id: z.string().nullable().openapi({
      description:
        "The RFC 5322 Message-ID of the email that carried the message: a reply's, or an inbound email's own. Replies quoting it thread into this ticket.",
    }),
    created_at: z.string(),
    updated_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .openapi("Message");

export const MessageListSchema = standardListSchema(MessageSchema, "MessageList");
export const AttachmentListSchema = namedCountedListSchema(
  "attachments",
  AttachmentSchema,
  "MessageAttachmentList",
);

const AttachmentInput = z.object(attachmentFields).strict();
/** Checked here, not when the email is built, so that a bad address changes nothing. */
const CcList = z
  .array(
    z
      .string()
      .min(3)
      .max(320)
      .refine((text) => parseAddress(text) !== null, { message: "must be an email address" }),
  )
  .max(50);
const hasBody = (b: { body_text?: string; body_html?: string }) => Boolean(b.body_text || b.body_html);

export const CreateMessageBodySchema = z
  .object({
    type: z.enum(["customer", "reply", "note"]).default("reply"),
    ...MessageBodies,
    draft: z.boolean().default(false),
    cc: CcList.optional(),
    attachments: z.array(AttachmentInput).max(20).optional(),
    status_after_send: TicketStatus.optional(),
    saved_reply_id: z.string().max(64).optional().openapi({
      description:
        "A saved reply (`srp_...`) to send: its body rendered for this ticket becomes the message, and its actions apply. With `body_text` or `body_html` as well, those are sent as written (the saved reply's text, edited) and only its actions apply.",
    }),
  })
  .strict()
  .refine((b) => hasBody(b) || b.saved_reply_id, "give body_text, body_html or saved_reply_id")
  .refine((b) => !b.saved_reply_id || (b.type !== "customer" && !b.draft), {
    message: "saved_reply_id goes with a published reply or note, not a customer message or a draft",
    path: ["saved_reply_id"],
  })
  .openapi("CreateMessageRequest");

export const UpdateDraftBodySchema = z
  .object({ ...MessageBodies, cc: CcList.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "name at least one field to change")
  .openapi("UpdateDraftRequest");

export const SendDraftBodySchema = z
  .object({ status_after_send: TicketStatus.optional() })
  .strict()
  .openapi("SendDraftRequest");

export const MessageListQuerySchema = offsetQuery(50).extend({
  created_after: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "Only messages created after this time (incremental sync)." }),
});

export const MessageParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});
export const AttachmentParamsSchema = MessageParamsSchema.extend({
  att_id: z.string().openapi({ param: { name: "att_id", in: "path" } }),
});

export const ComposeBodySchema = z
  .object({
    inbox_id: z.string(),
    to: z.string().min(3).max(320),
    name: CustomerName.optional(),
    subject: TicketSubject,
    ...MessageBodies,
    cc: CcList.optional(),
    attachments: z.array(AttachmentInput).max(20).optional(),
  })
  .strict()
  .refine(hasBody, "give body_text or body_html")
  .openapi("ComposeRequest");

export type CreateMessageInput = z.infer<typeof CreateMessageBodySchema>;
export type ComposeInput = z.infer<typeof ComposeBodySchema>;
export type AttachmentInputs = z.infer<typeof AttachmentInput>[];
