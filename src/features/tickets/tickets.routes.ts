import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  ETAG_HEADERS,
  ifMatchShape,
  ifNoneMatchHeader,
  notModifiedResponse,
  ticketChangedResponse,
} from "./ticket-etag.openapi";
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
  description:
    "Answers the ticket's `ETag` (its version): send it back as `If-Match` on PATCH /v1/tickets/{id}, POST /v1/tickets/{id}/messages or POST /v1/tickets/{id}/manage to refuse a write over a change the client has not seen (412 `ticket_changed`), or as `If-None-Match` here for a 304 while nothing changed. See docs/collision.md.",
  request: { params: TicketParamsSchema, headers: ifNoneMatchHeader },
  responses: {
    200: { ...jsonResponse(TicketSchema, "The ticket."), headers: ETAG_HEADERS },
    304: notModifiedResponse,
  },
});

export const updateTicketRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/tickets/{id}",
  tags,
  summary: "Edit a ticket",
  description:
    "Changes subject, status, priority, metadata or assignee. Fires `ticket.updated`. A status of `resolved`, `closed` or `spam` ends a snooze. A merged ticket answers 409 `ticket_merged` naming the ticket it was merged into. With `If-Match` (the ETag of GET /v1/tickets/{id}) the edit happens only when the ticket has not changed since (412 `ticket_changed` otherwise, nothing stored or fired); the answer's `ETag` is the version the edit left.",
  request: {
    params: TicketParamsSchema,
    headers: z.object(ifMatchShape),
    body: jsonBody(UpdateTicketBodySchema),
  },
  responses: {
    200: { ...jsonResponse(TicketSchema, "The ticket."), headers: ETAG_HEADERS },
    412: ticketChangedResponse,
  },
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
    "`close`, `resolve`, `reopen`, `hold`, `spam`, `not_spam`, `assign` (`user_id`), `unassign`, `snooze` (`until`), `unsnooze`, `set_priority` (`priority`), `add_tags`/`remove_tags` (`tags`), `merge` (`into_ticket_id`). Fires no `ticket.updated`. " +
    "**Snooze**: `until` must be in the future (400); only an `open`, `pending` or `on_hold` ticket can be snoozed (409 `ticket_not_snoozable`), and it keeps its status while snoozed. Within a minute after `until` the ticket goes back to `open` with `snoozed_until` null, once, and that wake fires `ticket.updated` (at most 500 wakes per minute per database; the rest follow in the next minutes, oldest first). A customer message, `unsnooze`, `reopen`, or any move to `resolved`, `closed` or `spam` (here, by PATCH or by a reply's status) ends the snooze, and a snooze changed before the wake commits is not woken. " +
    "**Merge**: `into_ticket_id` is a ticket of the same inbox (400 `merge_other_inbox`) and the same customer (400 `merge_other_customer`: the merged ticket's link and reply address lead to the survivor, which must not show one person's conversation to another), not itself merged (409 `ticket_merged`). Its messages and tags move there; this ticket is closed, keeps its customer and shows `merged_into_id`; its public page redirects to the survivor's, a reply from that page or to its reply address lands on the survivor, and any further write to it (a message, PATCH, an action, a tag) answers 409 `ticket_merged` naming the survivor. A merged ticket can still be read and deleted. The merge checks both tickets in its own transaction: when either changed after it read them (another merge at the same moment, A into B against B into A, or a message) nothing is merged and the answer is 409 `merge_conflict` (412 `ticket_changed` with If-Match); a write to the merged ticket that read it before the merge committed is refused with 409 `ticket_merged`, so nothing is left behind on it. " +
    "`If-Match` works as on PATCH: the action happens only when this ticket (the one in the path; for `merge`, not the survivor) has not changed since that ETag, else 412 `ticket_changed` with nothing done; the answer's `ETag` is the version the action left.",
  request: {
    params: TicketParamsSchema,
    headers: z.object(ifMatchShape),
    body: jsonBody(ManageBodySchema),
  },
  responses: {
    200: { ...jsonResponse(TicketSchema, "The ticket after the action."), headers: ETAG_HEADERS },
    412: ticketChangedResponse,
  },
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
