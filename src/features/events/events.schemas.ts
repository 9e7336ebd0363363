import { z } from "@hono/zod-openapi";
import { EVENT_NAMES } from "../../events/outbox";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    event: z.enum(EVENT_NAMES),
    inbox_id: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The webhook envelope's `data`, as it was when the event happened." }),
    created_at: z.string().openapi({ description: "The envelope's `timestamp`." }),
    dispatched_at: z
      .string()
      .nullable()
      .openapi({ description: "When it was handed to the inbox's webhooks; null until then." }),
  })
  .openapi("Event");

export const EventListSchema = standardListSchema(EventSchema, "EventList");

export const EventQuerySchema = offsetQuery(50).extend({
  event: z.enum(EVENT_NAMES).optional(),
  inbox_id: z.string().optional(),
});
