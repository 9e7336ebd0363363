import { z } from "@hono/zod-openapi";
import { HEARTBEAT_MS, PRESENCE_STATES, PRESENCE_TTL_MS } from "../../features/presence/presence";
import { TicketParamsSchema } from "../../features/tickets/tickets.schemas";
import { jsonResponse } from "../../lib/openapi";
import { dashboardRoute, formBody } from "../routes";

export const PresenceFormSchema = z.object({
  state: z.enum(PRESENCE_STATES).openapi({
    description: "`viewing`, `replying` (the reply box has text) or `gone` (the page closed).",
  }),
});

export const PresenceSchema = z
  .object({
    others: z.array(
      z.object({
        name: z.string().openapi({ description: "The person's name, or their email without one." }),
        state: z.enum(["viewing", "replying"]),
      }),
    ),
    heartbeat_ms: z.number().int().openapi({ description: "When to send the next heartbeat." }),
  })
  .openapi("TicketPresence");

const route = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/{id}/presence",
  summary: "Ticket presence heartbeat",
  description: `The ticket page's script posts this every ${HEARTBEAT_MS / 1000} seconds (with the session's CSRF token) and shows whom it answers: the other signed-in people of the workspace with this ticket open, and whether they are writing a reply. One call to the ticket's presence Durable Object, which keeps heartbeats in memory only (nothing is stored in D1 per view); a person who misses two heartbeats (${PRESENCE_TTL_MS / 1000} s) is no longer listed. The ticket id is not looked up: presence is keyed by workspace and ticket, so another workspace's people are never seen. See docs/collision.md.`,
  request: { params: TicketParamsSchema, body: formBody(PresenceFormSchema) },
});

/** A dashboard route that answers JSON: the page's script reads it, not a person. */
export const presenceRoute = {
  ...route,
  responses: { ...route.responses, 200: jsonResponse(PresenceSchema, "The others present.") },
};
