import { z } from "@hono/zod-openapi";
import { EMAIL_STATUSES, RECIPIENT_STATES } from "../../db/schema";
import { D1_MAX_ROW_BYTES, maxJsonBytes, refineWith } from "../../lib/input";
import { flatListSchema, offsetQuery, standardListSchema } from "../../lib/pagination";
import { headersProblem, subjectProblem } from "../../mail/mime/checks";
import { SendTemplateSchema } from "../templates/templates.schemas";
import { AttachmentContentId, attachmentFields } from "./attachment.schemas";

const AddressInput = z.string().min(3).max(320);
const AddressesInput = z.union([AddressInput, z.array(AddressInput).max(1000)]);
const TagPart = z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, "letters, digits, _ and - only, up to 256");

/**
 * The email's row holds its bodies, subject, headers, addresses, tags and attachment list (the
 * attachment bytes are in R2). What is left of D1's 2 MB row is room for the ids, timestamps,
 * counters and the transport's last answer.
 */
export const MAX_STORED_EMAIL_BYTES = D1_MAX_ROW_BYTES - 100_000;

/** Each body alone; together with everything else the email stores, MAX_STORED_EMAIL_BYTES. */
const MAX_EMAIL_BODY_BYTES = 1_000_000;
const MAX_HEADERS_BYTES = 16_384;

const AttachmentInput = z
  .object({ ...attachmentFields, content_id: AttachmentContentId.optional() })
  .strict();

const EmailBody = z
  .string()
  .superRefine(maxJsonBytes(MAX_EMAIL_BODY_BYTES))
  .optional()
  .openapi({
    description: `At most ${MAX_EMAIL_BODY_BYTES} bytes as JSON (UTF-8; a quote, backslash or line break counts 2). The email's row also holds html and text together with the subject, headers, addresses, tags and attachment names: over ${MAX_STORED_EMAIL_BYTES} bytes in all is a 413.`,
  });

const distinctNames = (tags: Array<{ name: string }>) =>
  new Set(tags.map((t) => t.name)).size === tags.length;

const EmailFields = {
  from: AddressInput.optional().openapi({
    example: "Acme <hello@acme.com>",
    description: "Required, unless the `template` has a `from`.",
  }),
  to: AddressesInput.openapi({ example: ["ada@example.com"] }),
  cc: AddressesInput.optional(),
  bcc: AddressesInput.optional(),
  reply_to: AddressesInput.optional(),
  subject: z.string().min(1).max(998).superRefine(refineWith(subjectProblem)).optional().openapi({
    description:
      "One line; a run without spaces may not pass 997 characters (the longest a folded Subject header line holds). Required, unless the `template` has a subject.",
  }),
  html: EmailBody,
  text: EmailBody,
  headers: z
    .record(z.string(), z.string())
    .superRefine(maxJsonBytes(MAX_HEADERS_BYTES))
    .superRefine(refineWith(headersProblem))
    .optional()
    .openapi({
      description: `Custom headers, at most ${MAX_HEADERS_BYTES} bytes as JSON. Refused: invalid names, \`Content-*\` and the headers the service writes (From, To, Subject, Date, Message-ID...), repeats in any case, line breaks or control characters, and a run without spaces longer than a 998-character header line.`,
    }),
  tags: z
    .array(z.object({ name: TagPart, value: TagPart }).strict())
    .max(50)
    .refine(distinctNames, { message: "must not repeat a tag name" })
    .optional(),
  track_opens: z
    .boolean()
    .optional()
    .openapi({ description: "Defaults to the account's `default_track_opens`." }),
  track_clicks: z
    .boolean()
    .optional()
    .openapi({ description: "Defaults to the account's `default_track_clicks`." }),
  template: SendTemplateSchema.optional().openapi({
    description:
      "A stored template instead of `html` and `text` (not with them): its published version (or `version_id`) filled in with `variables`; `from`, `subject` and `reply_to` default to the template's; a template that names a layout is put inside the layout's published version, whose variables are given here too. Cost: without an Idempotency-Key, a template this Worker instance sent before costs no D1 round trip more than HTML (its immutable published version is kept and the accepting batch checks it is still the one published); otherwise the templates are read in one round trip (with the key's read when there is one). See POST /v1/templates.",
  }),
};

interface Content {
  from?: string | undefined;
  subject?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  template?: unknown;
}

/** Without a template: from, subject and a body; with one: no body of its own. */
function contentRule(email: Content, ctx: z.RefinementCtx) {
  if (email.template !== undefined) {
    if (email.html !== undefined || email.text !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["template"],
        message: "give `template` or `html`/`text`, not both",
      });
    return;
  }
  if (email.from === undefined) ctx.addIssue({ code: "custom", path: ["from"], message: "required" });
  if (email.subject === undefined) ctx.addIssue({ code: "custom", path: ["subject"], message: "required" });
  if (!(email.html || email.text)) ctx.addIssue({ code: "custom", message: "give `html`, `text` or both" });
}

export const SendEmailBodySchema = z
  .object({
    ...EmailFields,
    attachments: z.array(AttachmentInput).max(100).optional(),
    scheduled_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "ISO 8601, at most 30 days ahead. A past time sends at once." }),
  })
  .strict()
  .superRefine(contentRule)
  .openapi("SendEmailRequest");

export const BatchEmailBodySchema = z
  .array(z.object(EmailFields).strict().superRefine(contentRule))
  .min(1)
  .max(100)
  .openapi("SendBatchRequest");

/** A send as the API takes it: possibly through a template. */
export type SendEmailRequest = z.infer<typeof SendEmailBodySchema>;
export type BatchEmailRequest = z.infer<typeof BatchEmailBodySchema>[number];
/** A send with its content at hand (a template filled in): what normalizeEmail checks. */
export type SendEmailInput = Omit<SendEmailRequest, "from" | "subject" | "template"> & {
  from: string;
  subject: string;
};
export type BatchEmailInput = Omit<BatchEmailRequest, "from" | "subject" | "template"> & {
  from: string;
  subject: string;
};

export const SentEmailSchema = z
  .object({
    id: z.string().openapi({ example: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    status: z.enum(EMAIL_STATUSES),
    scheduled_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("SentEmail");

export const BatchSentSchema = z.object({ data: z.array(SentEmailSchema) }).openapi("SentBatch");

const Counter = z.object({
  count: z.number().int(),
  first_at: z.string().nullable(),
  last_at: z.string().nullable(),
});

export const EmailSummarySchema = z
  .object({
    object: z.literal("email"),
    id: z.string(),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    reply_to: z.array(z.string()),
    subject: z.string(),
    status: z.enum(EMAIL_STATUSES),
    last_event: z.string(),
    last_event_at: z.string(),
    tags: z.array(z.object({ name: z.string(), value: z.string() })),
    attachments: z.array(
      z.object({
        filename: z.string(),
        content_type: z.string(),
        content_id: z.string().nullable(),
        size: z.number(),
      }),
    ),
    track_opens: z.boolean(),
    track_clicks: z.boolean(),
    template: z
      .object({
        id: z.string(),
        version_id: z.string(),
        layout: z.object({ id: z.string(), version_id: z.string() }).nullable().openapi({
          description: "The layout and its published version the template was sent inside; null without one.",
        }),
      })
      .nullable()
      .openapi({
        description: "The template and the published version the email was built from; null without one.",
      }),
    opens: Counter,
    clicks: Counter,
    message_id: z.string(),
    size: z.number().int().nullable().openapi({ description: "Bytes of the built message, once built." }),
    attempts: z.number().int(),
    last_response: z.string().nullable().openapi({ description: "The transport's last answer or failure." }),
    scheduled_at: z.string().nullable(),
    sent_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("EmailSummary");

export const EmailRecipientSchema = z
  .object({
    address: z.string().openapi({ example: "ada@example.com" }),
    status: z.enum(RECIPIENT_STATES).openapi({
      description:
        "Each recipient is its own envelope, handed off and answered on its own. `pending` (not tried yet, or not begun within an attempt's time: it goes in the next attempt and spends none of its tries), `sending` (handed to the transport by the attempt under way; its answer not recorded yet), `accepted` (the transport took it for this recipient; never sent again), `deferred` (a 4xx or a passing failure: retried on its own schedule, 30 s, 1, 2, 4, 8 min after each try, six tries in all), `rejected` (a 5xx: a hard bounce, or a refusal of the message), `failed` (deferred on each of its six tries, or the message could not be built; nobody refused it for good), `unknown` (handed to the transport by a sender that then stopped; not resent, so it is never delivered twice), `bounced` (accepted, then a delivery status notification came back for it: `response` holds its status code and diagnostic).",
    }),
    response: z
      .string()
      .nullable()
      .openapi({ description: "The transport's last answer about this recipient." }),
  })
  .openapi("EmailRecipient");

export const EmailSchema = EmailSummarySchema.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  recipients: z.array(EmailRecipientSchema).openapi({
    description: "Every distinct recipient of to, cc and bcc (lowercase) and how its delivery stands.",
  }),
}).openapi("Email");

export const EmailListSchema = standardListSchema(EmailSummarySchema, "EmailList");
export const ScheduledEmailListSchema = flatListSchema(EmailSummarySchema, "ScheduledEmailList");

export const EmailListQuerySchema = offsetQuery(50).extend({
  status: z.enum(EMAIL_STATUSES).optional(),
  to: z.string().optional().openapi({ description: "Emails with this recipient (to, cc or bcc)." }),
  tag: z.string().optional().openapi({ description: "`name` or `name:value`." }),
});

export const EmailParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const RescheduleBodySchema = z
  .object({ scheduled_at: z.iso.datetime({ offset: true }) })
  .strict()
  .openapi("RescheduleEmailRequest");

export const IdempotencyHeaderSchema = z.object({
  "idempotency-key": z.string().min(1).max(256).optional().openapi({
    description: "Replays the first answer for 24 hours; the same key with another body is a 409.",
  }),
});
