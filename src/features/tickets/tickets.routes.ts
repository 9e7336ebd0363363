import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  AddTicketTagBodySchema,
  CreateTicketBodySchema,
  ManageBodySchema,
  TicketListQuerySchema,
  TicketListSchema,
  TicketParamsSchema,
  TicketSchema,
  TicketTagListSchema,
  UpdateTicketBodySchema,
} from "./tickets.schemas";

const tags = ["Tickets"];
const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });

export const createTicketRoute = defineRoute("write", {
  method: "post",
  path: "/v1/tickets",
  tags,
  summary: "Create a ticket",
  description:
    "Creates a ticket in an inbox for a customer given by exactly one of `customer_id` or `customer` (found by email, any case, or created); neither or both is a 400. A blocked customer gives 403. `client_id` is the workspace's ticket prefix and next number (never reused). An optional first `message` is the customer's. Tag names are created in the inbox when missing. Without `assignee_id` the inbox's `assignment_rule` picks the assignee in the same transaction as the ticket (round robin or balanced over the workspace's active, available users under their capacity; `null` when nobody can take it or the rule is `manual`; see docs/assignment.md). Fires `ticket.created` (not `message.created`), whose `ticket.assignee_id` is the assignee the ticket was created with, chosen by the rule or given; no `ticket.updated` follows.",
  request: {
    headers: idempotencyHeader(
      "A retried create answers the first ticket: no second ticket, no second `ticket.created`.",
    ),
    body: jsonBody(CreateTicketBodySchema),
  },
  responses: {
    201: jsonResponse(TicketSchema, "The ticket."),
    409: errorResponse("The Idempotency-Key was used with another body (`idempotency_key_reused`)."),
  },
});

export const listTicketsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/tickets",
  tags,
  summary: "List tickets",
  description:
    "Newest first. Filters: `status`, `priority`, `inbox_id`, `customer_id`, `assignee_id`, `tag`, `q` (full-text search), `updated_after`, `sla_breached`, `sla_due_before` (ordered by due time, soonest first; see docs/sla.md). With `q` the order is relevance (bm25), then newest first, each item has `match` (an HTML-escaped excerpt, hits in `<mark>`), and `pagination.total` counts the matches; `q` combines with every other filter. A search ranks at most the workspace's 2,000 newest matching rows (ticket fields, then messages newest first): a word in more places lists and counts the tickets among them (add words to narrow). See docs/search.md. With `updated_after` the order is (updated_at, id) ascending, so a sync walks pages without gaps. Without `q`, `pagination.total` is always exact: with no filter, or with `status`, `priority`, both, `inbox_id`, `assignee_id` or `tag` alone, it is read from counters that database triggers keep with every write, so a large workspace answers as fast as a small one; other filters and combinations count their matches on an index. A `tag` filter first reads how many tickets carry the tag: a tag on at most 2,000 tickets is listed from its own tickets, a commoner one by walking the newest tickets.",
  request: { query: TicketListQuerySchema },
  responses: { 200: jsonResponse(TicketListSchema, "A page of tickets.") },
});

export const getTicketRoute = defineRoute("read", {
  method: "get",
  path: "/v1/tickets/{id}",
  tags,
  summary: "Get a ticket",
  request: { params: TicketParamsSchema },
  responses: { 200: jsonResponse(TicketSchema, "The ticket.") },
});

export const updateTicketRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/tickets/{id}",
  tags,
  summary: "Edit a ticket",
  description: "Changes subject, status, priority, metadata or assignee. Fires `ticket.updated`.",
  request: { params: TicketParamsSchema, body: jsonBody(UpdateTicketBodySchema) },
  responses: { 200: jsonResponse(TicketSchema, "The ticket.") },
});

export const deleteTicketRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/tickets/{id}",
  tags,
  summary: "Delete a ticket",
  description:
    "Permanently removes the ticket, its messages, tag links and attachment bytes. Fires `ticket.deleted` with its last state.",
  request: { params: TicketParamsSchema },
  responses: { 200: jsonResponse(Deleted, "Deleted.") },
});

export const manageTicketRoute = defineRoute("write", {
  method: "post",
  path: "/v1/tickets/{id}/manage",
  tags,
  summary: "Ticket actions",
  description:
    "`close`, `resolve`, `reopen`, `hold`, `spam`, `not_spam`, `assign` (`user_id`), `unassign`, `snooze` (`until`), `unsnooze`, `set_priority` (`priority`), `add_tags`/`remove_tags` (`tags`), `merge` (`into_ticket_id`, a ticket of the same inbox: messages and tags move there; this ticket is closed; a ticket of another inbox answers 400 `merge_other_inbox`, one already merged 409 `ticket_merged`). Fires no `ticket.updated`.",
  request: { params: TicketParamsSchema, body: jsonBody(ManageBodySchema) },
  responses: { 200: jsonResponse(TicketSchema, "The ticket after the action.") },
});

export const listTicketTagsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/tickets/{id}/tags",
  tags,
  summary: "A ticket's tags",
  request: { params: TicketParamsSchema },
  responses: { 200: jsonResponse(TicketTagListSchema, "Its tags.") },
});

export const addTicketTagRoute = defineRoute("write", {
  method: "post",
  path: "/v1/tickets/{id}/tags",
  tags,
  summary: "Tag a ticket",
  description:
    "By `tag_id` (a tag of the ticket's inbox) or by `name` (created in the inbox when missing). Answers the ticket's tags.",
  request: { params: TicketParamsSchema, body: jsonBody(AddTicketTagBodySchema) },
  responses: { 200: jsonResponse(TicketTagListSchema, "Its tags.") },
});

export const removeTicketTagRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/tickets/{id}/tags/{tag_id}",
  tags,
  summary: "Untag a ticket",
  request: {
    params: TicketParamsSchema.extend({
      tag_id: z.string().openapi({ param: { name: "tag_id", in: "path" } }),
    }),
  },
  responses: { 200: jsonResponse(TicketTagListSchema, "Its remaining tags.") },
});
