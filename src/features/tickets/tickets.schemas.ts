import { z } from "@hono/zod-openapi";
import { TICKET_PRIORITIES, TICKET_STATUSES } from "../../db/schema";
import { Metadata, maxJsonBytes, refineWith, singleLine } from "../../lib/input";
import { countedListSchema, offsetQuery, standardListSchema } from "../../lib/pagination";
import { subjectProblem } from "../../mail/mime/checks";
import { CustomerName } from "../customers/customers.schemas";
import { TicketSlaSchema } from "../sla/sla-policies.schemas";

export const TicketStatus = z.enum(TICKET_STATUSES);
export const TicketPriority = z.enum(TICKET_PRIORITIES);
export const TagName = singleLine(50);
export const TagNames = z.array(TagName).max(50);

/** Replies carry the subject into an email, so it must be a Subject the builder can write. */
export const TicketSubject = singleLine(998).superRefine(refineWith(subjectProblem)).openapi({
  description:
    "One line of at most 998 characters, in which no run without spaces passes 997 characters (the longest a folded Subject header line holds).",
});

/**
 * A message body is stored in its row and copied into its `message.created` event, both D1 rows
 * (2 MB each): two bodies of 750,000 bytes and all else the event carries stay well under that.
 */
export const MAX_MESSAGE_BODY_BYTES = 750_000;
const MessageBody = z
  .string()
  .superRefine(maxJsonBytes(MAX_MESSAGE_BODY_BYTES))
  .openapi({
    description: `At most ${MAX_MESSAGE_BODY_BYTES} bytes as JSON (UTF-8; a quote, backslash or line break counts 2).`,
  });
export const MessageBodies = { body_text: MessageBody.optional(), body_html: MessageBody.optional() };

export const TicketSchema = z
  .object({
    id: z.string().openapi({ example: "tkv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    client_id: z.string().openapi({ example: "SUP-00042" }),
    subject: z.string(),
    status: TicketStatus,
    priority: TicketPriority,
    shared_uuid: z.string().openapi({ example: "shr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    public_url: z.string().openapi({
      description:
        "The ticket's public page (no authentication: the `shr_` id is the capability). It names the ticket's workspace (`?w=<account id>`) so the page finds its database at once; a link without it, as made before, opens the same page.",
      example:
        "https://support.example.com/portal/tickets/shr_01JD3Z6X8Y9ABCDEFGHJKMNPQR?w=acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    }),
    metadata: z.record(z.string(), z.unknown()).openapi({ description: "Free-form JSON object." }),
    inbox_id: z.string(),
    customer_id: z.string(),
    customer: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
    assignee_id: z.string().nullable(),
    tags: z.array(z.string()),
    message_count: z.number().int(),
    last_message_at: z.string().nullable(),
    snoozed_until: z.string().nullable(),
    closed_at: z.string().nullable(),
    merged_into_id: z.string().nullable().openapi({
      description:
        "Set once the ticket was merged (`merge` action): the ticket its messages and tags moved to. A merged ticket stays closed and takes no writes (409 `ticket_merged`); its public link and reply address lead to this ticket.",
      example: null,
    }),
    sla: TicketSlaSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Ticket");

const TicketListItemSchema = TicketSchema.extend({
  match: z.string().nullable().optional().openapi({
    description:
      "Only with `q`: the text around a hit in the ticket's newest message that has one, else in its subject, customer or tags, HTML-escaped, each hit in `<mark>...</mark>`; at most about 40 matched or surrounding 3-character sequences, `…` where it was cut.",
    example: "Hello, I was charged twice and would like a <mark>refund</mark> for the second…",
  }),
}).openapi("TicketListItem");

export const TicketListSchema = standardListSchema(TicketListItemSchema, "TicketList");

export const CreateTicketBodySchema = z
  .object({
    inbox_id: z.string(),
    customer: z
      .object({
        email: z.string().min(3).max(320),
        name: CustomerName.optional(),
        phone: singleLine(50).optional(),
      })
      .strict()
      .optional(),
    customer_id: z.string().optional(),
    subject: TicketSubject,
    message: z
      .object(MessageBodies)
      .strict()
      .refine((m) => m.body_text || m.body_html, "give body_text or body_html")
      .optional(),
    status: TicketStatus.optional(),
    priority: TicketPriority.optional(),
    tags: TagNames.optional(),
    metadata: Metadata.optional(),
    assignee_id: z.string().max(64).optional().openapi({
      description:
        "An active user (`usr_...`) of the workspace; 400 otherwise. Left out, the inbox's `assignment_rule` chooses.",
    }),
  })
  .strict()
  .refine((b) => Boolean(b.customer) !== Boolean(b.customer_id), "give either `customer` or `customer_id`")
  .openapi("CreateTicketRequest");

export const UpdateTicketBodySchema = z
  .object({
    subject: TicketSubject,
    status: TicketStatus,
    priority: TicketPriority,
    metadata: Metadata,
    assignee_id: z.string().max(64).nullable().openapi({
      description: "An active user (`usr_...`) of the workspace, or null to unassign; 400 otherwise.",
    }),
  })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, "name at least one field to change")
  .openapi("UpdateTicketRequest");

/** The longest `q`: a search is words and phrases, not a document. */
export const MAX_SEARCH_CHARS = 500;

export const TicketListQuerySchema = offsetQuery(50).extend({
  status: TicketStatus.optional(),
  priority: TicketPriority.optional(),
  inbox_id: z.string().optional(),
  customer_id: z.string().optional(),
  assignee_id: z
    .string()
    .optional()
    .openapi({ description: "A user (`usr_...`), or `none` for the tickets assigned to no one." }),
  tag: z.string().optional().openapi({ description: "A tag name (any case)." }),
  q: z.string().min(1).max(MAX_SEARCH_CHARS).optional().openapi({
    description:
      'Full-text search of the subject, every message\'s text, the customer\'s name and email, `client_id` and tag names: words (each found anywhere in a word, whatever its case or accents: `refun` and `refun*` find "refunded", `cafe` finds "café"), "quoted phrases", and `-word` or `-"a phrase"` to exclude. A ticket has every word or phrase in any of its parts. Terms shorter than 3 characters are left out; a `q` with nothing else is 400. At most 12 terms. Results rank by relevance, then newest first, and each has `match`. See docs/search.md.',
  }),
  updated_after: z.iso.datetime({ offset: true }).optional().openapi({
    description: "Only tickets updated after this time, ordered by (updated_at, id) ascending for syncing.",
  }),
  sla_breached: z.enum(["true", "false"]).optional().openapi({
    description:
      "`true`: only tickets that missed an SLA target (met late, or a due time passed unmet: set by the minute's sweep within a minute of the due time, and by every write that moves the SLA); `false`: the others, tickets without an SLA included.",
  }),
  sla_due_before: z.iso.datetime({ offset: true }).optional().openapi({
    description:
      "Only tickets with a running SLA target due before this time (the earliest of its targets), ordered by that due time, soonest first (overdue ones first). Paused and met targets have no due time.",
  }),
});

export const TicketParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "tkv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const ManageBodySchema = z
  .discriminatedUnion("action", [
    z
      .object({
        action: z.enum(["close", "resolve", "reopen", "hold", "spam", "not_spam", "unassign", "unsnooze"]),
      })
      .strict(),
    z
      .object({
        action: z.literal("assign"),
        user_id: z
          .string()
          .min(1)
          .max(64)
          .openapi({ description: "An active user (`usr_...`) of the workspace; 400 otherwise." }),
      })
      .strict(),
    z.object({ action: z.literal("snooze"), until: z.iso.datetime({ offset: true }) }).strict(),
    z.object({ action: z.literal("set_priority"), priority: TicketPriority }).strict(),
    z.object({ action: z.enum(["add_tags", "remove_tags"]), tags: TagNames.min(1) }).strict(),
    z.object({ action: z.literal("merge"), into_ticket_id: z.string() }).strict(),
  ])
  .openapi("ManageTicketRequest");

export type ManageInput = z.infer<typeof ManageBodySchema>;

export const TicketTagSchema = z
  .object({
    id: z.string(),
    inbox_id: z.string(),
    name: z.string(),
    color: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("TicketTag");
export const TicketTagListSchema = countedListSchema(TicketTagSchema, "TicketTagList");
export const AddTicketTagBodySchema = z
  .object({ tag_id: z.string().optional(), name: TagName.optional() })
  .strict()
  .refine((b) => Boolean(b.tag_id) !== Boolean(b.name), "give either `tag_id` or `name`")
  .openapi("AddTicketTagRequest");
