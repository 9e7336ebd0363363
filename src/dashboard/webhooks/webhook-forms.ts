import { z } from "@hono/zod-openapi";
import { offsetQuery } from "../../lib/pagination";
import { EventsField } from "../inboxes/inbox-forms";

/**
 * The dashboard's email webhook forms. They carry strings only: the values then go through the
 * API's own body schemas, so every rule and message is the API's.
 */

const done = z.string().max(40).optional().openapi({ description: "Which confirmation to show." });

/** The list of endpoints, and an endpoint's page (its deliveries), paginated like every dashboard list. */
export const PagedQuery = offsetQuery(20).extend({ done });

export const EndpointPath = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "whk_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const DeliveryPath = EndpointPath.extend({
  delivery_id: z
    .string()
    .max(64)
    .openapi({
      param: { name: "delivery_id", in: "path" },
      description: "The delivery's `event_id`.",
      example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    }),
});

export const EndpointForm = z.object({ url: z.string().max(4000), events: EventsField });

export type EndpointDraft = { url: string; events: string[] };
