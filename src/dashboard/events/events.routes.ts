import { z } from "@hono/zod-openapi";
import { offsetQuery } from "../../lib/pagination";
import { EVENT_NAMES } from "../../webhooks/outbox";
import { detailParams, filterField } from "../logs/filter-fields";
import { dashboardRoute } from "../routes";

export const EventFiltersSchema = offsetQuery(50).extend({
  event: filterField(z.enum(EVENT_NAMES), "Only this event."),
  inbox_id: filterField(z.string().max(64), "Only events of this inbox."),
});

export const eventsPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/events",
  summary: "Events",
  description:
    "The workspace's event stream, newest first, as GET /v1/accounts/{id}/events lists it: time, event, inbox (its name when the event happened) and a summary of the deliveries (how many succeeded, failed or wait). Filters: event (every webhook event name) and inbox (the workspace's 100 newest inboxes). Every signed-in person may read it.",
  request: { query: EventFiltersSchema },
});

export const eventPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/events/{id}",
  summary: "Event",
  description:
    "One event: the envelope its webhooks received (pretty-printed JSON) and one row per delivery with the URL, status, the receiver's status code, duration, error and when it was attempted. Another workspace's event id is a 404.",
  request: { params: detailParams("evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});
