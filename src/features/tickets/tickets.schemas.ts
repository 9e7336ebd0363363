import { z } from "@hono/zod-openapi";
import { TICKET_PRIORITIES, TICKET_STATUSES } from "../../db/schema";
import { countedListSchema, offsetQuery, standardListSchema } from "../../lib/pagination";

export const TicketStatus = z.enum(TICKET_STATUSES);
export const TicketPriority = z.enum(TICKET_PRIORITIES);
const Metadata = z.record(z.string(), z.unknown()).openapi({ description: "Free-form JSON object." });
const TagNames = z.array(z.string().trim().min(1).max(50)).max(50);

export const TicketSchema = z
  .object({
    id: z.string().openapi({ example: "tkv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    client_id: z.string().openapi({ example: "SUP-00042" }),
    subject: z.string(),
    status: TicketStatus,
    priority: TicketPriority,
    shared_uuid: z.string().openapi({ example: "shr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    public_url: z.string(),
    metadata: Metadata,
    inbox_id: z.string(),
    customer_id: z.string(),
    customer: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
    assignee_id: z.string().nullable(),
    tags: z.array(z.string()),
    message_count: z.number().int(),
    last_message_at: z.string().nullable(),
    snoozed_until: z.string().nullable(),
    closed_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Ticket");

export const TicketListSchema = standardListSchema(TicketSchema, "TicketList");

const Body = {
  body_text: z.string().max(1_000_000).optional(),
  body_html: z.string().max(1_000_000).optional(),
};

export const CreateTicketBodySchema = z
  .object({
    inbox_id: z.string(),
    customer: z
      .object({
        email: z.string().min(3).max(320),
        name: z.string().max(200).optional(),
        phone: z.string().max(50).optional(),
      })
      .strict()
      .optional(),
    customer_id: z.string().optional(),
    subject: z.string().trim().min(1).max(998),
    message: z
      .object(Body)
      .strict()
      .refine((m) => m.body_text || m.body_html, "give body_text or body_html")
      .optional(),
    status: TicketStatus.optional(),
    priority: TicketPriority.optional(),
    tags: TagNames.optional(),
    metadata: Metadata.optional(),
    assignee_id: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: "An active user (`usr_...`) of the workspace; 400 otherwise." }),
  })
  .strict()
  .refine((b) => Boolean(b.customer) !== Boolean(b.customer_id), "give either `customer` or `customer_id`")
  .openapi("CreateTicketRequest");

export const UpdateTicketBodySchema = z
  .object({
    subject: z.string().trim().min(1).max(998),
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

export const TicketListQuerySchema = offsetQuery(50).extend({
  status: TicketStatus.optional(),
  priority: TicketPriority.optional(),
  inbox_id: z.string().optional(),
  customer_id: z.string().optional(),
  assignee_id: z.string().optional(),
  tag: z.string().optional().openapi({ description: "A tag name (any case)." }),
  q: z.string().min(1).max(200).optional().openapi({ description: "Words in the subject." }),
  updated_after: z.iso.datetime({ offset: true }).optional().openapi({
    description: "Only tickets updated after this time, ordered by (updated_at, id) ascending for syncing.",
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
  .object({ tag_id: z.string().optional(), name: z.string().trim().min(1).max(50).optional() })
  .strict()
  .refine((b) => Boolean(b.tag_id) !== Boolean(b.name), "give either `tag_id` or `name`")
  .openapi("AddTicketTagRequest");
