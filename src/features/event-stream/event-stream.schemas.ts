import { z } from "@hono/zod-openapi";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { EVENT_NAMES } from "../../webhooks/outbox";

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "dlv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    url: z.string().openapi({ description: "The webhook's URL when the event happened." }),
    status: z.enum(["pending", "sending", "succeeded", "failed", "unknown"]).openapi({
      description:
        "`pending` until the dispatcher claims it (held there, not attempted, while the workspace is suspended, and dispatched once it is reinstated), `sending` during the one attempt, then `succeeded` (a 2xx answer), `failed` (any other answer, a redirect, a network error, or no answer within 10 s) or `unknown` (the Worker stopped during the attempt and its outcome was lost: the receiver may or may not have received the event; reconcile through the API). `succeeded`, `failed` and `unknown` are final: deliveries are not retried.",
    }),
    status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The receiver's HTTP status, if it answered." }),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable().openapi({ description: "Why it failed, in words; null on success." }),
    attempted_at: z.string().nullable(),
  })
  .openapi("WebhookDelivery");

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    event: z.enum(EVENT_NAMES).openapi({
      description:
        "`ticket.sla_warning` (at a target's due time less the policy's `warning_before`) and `ticket.sla_breached` (at the due time) come from the minute's SLA sweep, within a minute of the moment, once per target and due time; a webhook receives them only when it lists them by name. Their `data`: `{ inbox, ticket, sla: { policy_id, target, due_at } }`, `target` one of `first_response`, `next_response`, `resolution` (docs/sla.md).",
    }),
    inbox_id: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The webhook envelope's `data`, as it was when the event happened." }),
    created_at: z.string().openapi({ description: "The envelope's `timestamp`." }),
    dispatched_at: z.string().nullable().openapi({
      description:
        "When it was handed to the inbox's webhooks; null until then, which lasts as long as its workspace is suspended.",
    }),
    deliveries: z.array(DeliverySchema).openapi({
      description:
        "One record per webhook of the inbox that was enabled and subscribed to this event when it happened.",
    }),
  })
  .openapi("Event");

export const EventListSchema = standardListSchema(EventSchema, "EventList");

export const EventQuerySchema = offsetQuery(50).extend({
  event: z.enum(EVENT_NAMES).optional(),
  inbox_id: z.string().optional(),
});
