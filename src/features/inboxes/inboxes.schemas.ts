import { z } from "@hono/zod-openapi";
import { ASSIGNMENT_RULES } from "../../db/schema";
import { singleLine } from "../../lib/input";
import { pagedListSchema } from "../../lib/pagination";
import { isValidAddress } from "../../mail/address";
import { EVENT_NAMES } from "../../webhooks/outbox";

/** Ticket statuses an agent reply may leave behind; `spam` is a verdict, never a reply's outcome. */
export const STATUSES_AFTER_REPLY = ["open", "pending", "on_hold", "resolved", "closed"] as const;
export const MAX_WEBHOOKS = 10;
/** `whsec_` and at least 32 base64 or base64url characters (24 bytes), as generated secrets are. */
const SECRET = /^whsec_[A-Za-z0-9+/=_-]{32,256}$/;

export const WebhookSchema = z
  .object({
    url: z.string().openapi({ example: "https://hooks.example.com/support" }),
    events: z.array(z.enum(EVENT_NAMES)).openapi({ example: ["ticket.created", "message.created"] }),
    enabled: z.boolean(),
    secret: z.string().nullable().openapi({
      description:
        "Signing secret. The whole string, as UTF-8 bytes, is the HMAC-SHA256 key. Answered to write and admin keys, the keys that write inboxes (they keep a secret by sending it back); `null` for read keys, which never receive a secret.",
      example: "whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    }),
  })
  .openapi("Webhook");

export const WebhookInputSchema = z
  .object({
    url: z.string().min(1).openapi({
      description:
        "`https://` to a public host. Refused: credentials in the URL, private (10/8, 172.16/12, 192.168/16, 100.64/10), link-local (169.254/16, fe80::/10), unique-local (fc00::/7), `0.0.0.0` and loopback. Plain `http://` (and https) to loopback (127.0.0.0/8, localhost, [::1]) is accepted only when the service runs in development or test.",
      example: "https://hooks.example.com/support",
    }),
    events: z
      .array(z.enum(EVENT_NAMES))
      .min(1)
      .refine((names) => new Set(names).size === names.length, { message: "must not repeat an event" })
      .openapi({
        description:
          "Events to receive; at least one, no repeats. `ticket.sla_warning` (at a target's due time less the policy's `warning_before`) and `ticket.sla_breached` (at the due time) come from the minute's SLA sweep, within a minute of the moment, once per target and due time; a webhook receives them only when it lists them by name. Their `data`: `{ inbox, ticket, sla: { policy_id, target, due_at } }`, `target` one of `first_response`, `next_response`, `resolution` (docs/sla.md).",
      }),
    enabled: z.boolean().default(true).openapi({ description: "Defaults to true." }),
    secret: z
      .string()
      .regex(SECRET, "must be `whsec_` followed by at least 32 base64url characters")
      .optional()
      .openapi({
        description:
          "Send back the secret the inbox answered to keep it; leave it out and a new one is generated.",
      }),
  })
  .strict()
  .openapi("WebhookInput");

export type WebhookInput = z.infer<typeof WebhookInputSchema>;

const AssignmentRule = z.enum(ASSIGNMENT_RULES).openapi({
  description:
    "Who takes a new ticket (and a reopened one whose assignee is away, disabled or removed): `manual` (nobody until a person assigns it), `round_robin` (each available agent in turn) or `balanced` (the available agent with the fewest open tickets, in turn among equals). Agents are the workspace's active users who are `available` and under their `capacity`; when none is, the ticket stays unassigned. See docs/assignment.md.",
  example: "round_robin",
});

export const InboxSchema = z
  .object({
    id: z.string().openapi({ example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: z.string().openapi({ example: "Support" }),
    email_address: z.string().openapi({ example: "support@acme.com" }),
    connection_id: z.string().nullable().openapi({
      description:
        "The connection of the address's domain, which the inbox sends and receives through. `null` only on inboxes made before an address had to be on a verified domain.",
    }),
    status_after_reply: z.enum(STATUSES_AFTER_REPLY),
    assignment_rule: AssignmentRule,
    webhooks: z.array(WebhookSchema),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Inbox");

export const InboxListSchema = pagedListSchema(InboxSchema, "InboxList");

const InboxFields = {
  name: singleLine(100).openapi({
    description: "One line: replies are sent from it as the display name.",
    example: "Support",
  }),
  email_address: z
    .string()
    .trim()
    .toLowerCase()
    .refine(isValidAddress, { message: "must be an email address such as support@acme.com" })
    .openapi({
      description:
        "Stored lowercase. Its domain must be a verified connection of the workspace. Unique across the whole service (inbound mail is routed by it).",
      example: "support@acme.com",
    }),
  connection_id: z.string().nullable().openapi({
    description:
      "May be left out: the service sets it to the workspace's connection of the address's domain. When sent it must be that connection.",
    example: "con_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
  }),
  status_after_reply: z
    .enum(STATUSES_AFTER_REPLY)
    .openapi({ description: "Ticket status after an agent reply, unless the reply names one." }),
  assignment_rule: AssignmentRule,
  webhooks: z
    .array(WebhookInputSchema)
    .max(MAX_WEBHOOKS)
    .openapi({
      description: `Up to ${MAX_WEBHOOKS}. Replaces the whole list on every write.`,
    }),
};

export const CreateInboxBodySchema = z
  .object({
    ...InboxFields,
    connection_id: InboxFields.connection_id.optional(),
    status_after_reply: InboxFields.status_after_reply.default("pending"),
    assignment_rule: InboxFields.assignment_rule.default("manual"),
    webhooks: InboxFields.webhooks.default([]),
  })
  .strict()
  .openapi("CreateInboxRequest");

export const UpdateInboxBodySchema = z
  .object(InboxFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateInboxRequest");

export type CreateInboxInput = z.infer<typeof CreateInboxBodySchema>;
export type UpdateInboxInput = z.infer<typeof UpdateInboxBodySchema>;

export const InboxParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
