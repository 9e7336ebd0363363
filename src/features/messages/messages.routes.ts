import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { ETAG_HEADERS, ifMatchShape, ticketChangedResponse } from "../tickets/ticket-etag.openapi";
import { TicketParamsSchema, TicketSchema } from "../tickets/tickets.schemas";
import {
  AttachmentListSchema,
  AttachmentParamsSchema,
  ComposeBodySchema,
  CreateMessageBodySchema,
  MessageListQuerySchema,
  MessageListSchema,
  MessageParamsSchema,
  MessageSchema,
  SendDraftBodySchema,
  UpdateDraftBodySchema,
} from "./messages.schemas";

const tags = ["Messages"];

export const listMessagesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/tickets/{id}/messages",
  tags,
  summary: "List a ticket's messages",
  description: "Oldest first, drafts and notes included. `created_after` for incremental sync.",
  request: { params: TicketParamsSchema, query: MessageListQuerySchema },
  responses: { 200: jsonResponse(MessageListSchema, "A page of messages.") },
});

export const createMessageRoute = defineRoute("write", {
  method: "post",
  path: "/v1/tickets/{id}/messages",
  tags,
  summary: "Add a message",
  description:
    "`customer` (inbound: reopens a pending, on-hold, resolved or closed ticket and ends a snooze; spam stays spam; a resolved or closed one whose assignee is away, disabled or removed is reassigned by the inbox's `assignment_rule` in the same transaction, firing `ticket.updated`, see docs/assignment.md), `reply` (emailed to the customer from the inbox address with threading headers and a Reply-To back to this ticket, through the email pipeline: every check of POST /v1/emails applies; the ticket takes `status_after_send` or the inbox's `status_after_reply`) or `note` (internal). `draft: true` stores it without sending, changing anything or firing an event. Fires `message.created` (not `ticket.updated`). Every input is checked before anything is stored or sent (400): attachments must be base64 with a valid media type and a name without control characters, `cc` must hold email addresses, and each body is at most 750,000 bytes counted as JSON, so that the message and its event fit their rows. The message, its attachments, a reply's email, the ticket's change and the event are written in one transaction: a failure leaves none of them, and no email leaves for a message that was not stored. Attachment bytes are kept once (a reply's email refers to them) and count toward the storage quota (429 `Limit exceeded` when they would pass it). Concurrent messages on one ticket each count: `message_count` is incremented in SQL. `saved_reply_id` sends a saved reply (see POST /v1/saved-replies/{id}/preview for how it renders; 422 `missing_variable` or `saved_reply_other_inbox` before anything is stored): the message stores the rendered text (`body_text`, the Markdown with its variables filled in; `body_html`, rendered and sanitized). Its actions commit in the message's own transaction: a reply's `status` is its status after send (an explicit `status_after_send` wins); `assignee_id` (and a note's `status`) change the ticket as PATCH /v1/tickets/{id} does and fire `ticket.updated` (after `message.created`, with the ticket as the message and the actions leave it); `add_tags` link the tags as POST /v1/tickets/{id}/manage does (tags new to the inbox are created first, no event). The message and its actions are stored together or not at all, and concurrent sends on one ticket each count once; a retry with the Idempotency-Key answers the stored message and applies nothing again. The assignee is checked before anything is stored (400 when it is not an active user). With `If-Match` (the ETag of GET /v1/tickets/{id}) the message is stored and sent only when the ticket has not changed since, checked in the message's own transaction: a reply over a message the client has not seen answers 412 `ticket_changed` and nothing is stored or sent (of two parallel posts with one ETag, one wins); the answer's `ETag` is the version the message left (none on an idempotent replay). Drafts are checked too. A merged ticket takes no messages: 409 `ticket_merged` names the ticket it was merged into.",
  request: {
    params: TicketParamsSchema,
    headers: idempotencyHeader(
      "A retried post answers the first message: no second message, reply email or `message.created`. The key is bound to this ticket: on another ticket it is a 409.",
    ).extend(ifMatchShape),
    body: jsonBody(CreateMessageBodySchema),
  },
  responses: {
    201: { ...jsonResponse(MessageSchema, "The message."), headers: ETAG_HEADERS },
    409: errorResponse("The Idempotency-Key was used with another body (`idempotency_key_reused`)."),
    403: errorResponse("Sender domain not verified."),
    412: ticketChangedResponse,
    413: errorResponse("The reply's built email would exceed 25 MB (`message_too_large`)."),
    422: errorResponse(
      "Customer suppressed; or the saved reply has a variable without a value (`missing_variable`) or belongs to another inbox (`saved_reply_other_inbox`).",
    ),
    429: errorResponse("Email or storage quota reached."),
  },
});

export const composeRoute = defineRoute("write", {
  method: "post",
  path: "/v1/tickets/compose",
  tags: ["Tickets"],
  summary: "Start a ticket by email",
  description:
    "Creates the customer if new, a ticket (status: the inbox's `status_after_reply`) and an outbound message, and emails it from the inbox address. 413 when the built email exceeds 25 MB. Every input is checked before the customer or ticket is created (400). The ticket, its message, the message's attachments and the email are written in one transaction, so a failure leaves no email behind. Fires neither `ticket.created` nor `message.created`.",
  request: {
    headers: idempotencyHeader("A retried compose answers the first ticket: no second ticket or email."),
    body: jsonBody(ComposeBodySchema),
  },
  responses: {
    201: jsonResponse(TicketSchema, "The new ticket."),
    409: errorResponse("The Idempotency-Key was used with another body (`idempotency_key_reused`)."),
    403: errorResponse("Sender domain not verified."),
    413: errorResponse("The built email would exceed 25 MB (`message_too_large`)."),
  },
});

export const getMessageRoute = defineRoute("read", {
  method: "get",
  path: "/v1/messages/{id}",
  tags,
  summary: "Get a message",
  description:
    "A message that came in by email (`type: customer`, `direction: inbound`, `status: received`) has `from` (the sender's address), `to` and `cc` (the addresses of its headers), `subject`, `body_text` and `body_html` as received, `stripped_text` (the new text without the quoted history, for display), `auto_submitted`, `email_message_id` (its own Message-ID) and its attachments and inline parts (`content_id`), the first 100 of them; the MIME itself, with any others, is at GET /v1/messages/{id}/raw.",
  request: { params: MessageParamsSchema },
  responses: { 200: jsonResponse(MessageSchema, "The message.") },
});

export const updateDraftRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/messages/{id}",
  tags,
  summary: "Edit a draft",
  description:
    "Only drafts change: 409 for a published message, or a draft that a concurrent `send` is publishing.",
  request: { params: MessageParamsSchema, body: jsonBody(UpdateDraftBodySchema) },
  responses: { 200: jsonResponse(MessageSchema, "The draft."), 409: errorResponse("Not a draft.") },
});

export const deleteDraftRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/messages/{id}",
  tags,
  summary: "Delete a draft",
  description:
    "Only drafts can be deleted: 409 for a published message, or a draft that a concurrent `send` is publishing. Its attachments' bytes are freed from the storage quota.",
  request: { params: MessageParamsSchema },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted."),
    409: errorResponse("Not a draft."),
  },
});

export const sendDraftRoute = defineRoute("write", {
  method: "post",
  path: "/v1/messages/{id}/send",
  tags,
  summary: "Send a draft",
  description:
    "Publishes a draft exactly as posting it would have (a reply is emailed); then `message.created` fires. The body is optional: an empty one (with or without `Content-Type: application/json`) is `{}`. The draft is claimed with a conditional update before anything is sent, so of two sends at once one publishes it and the other answers 409 `message_being_sent`; a send refused by the email checks (403, 422, 429) leaves it a draft.",
  request: {
    params: MessageParamsSchema,
    body: { required: false, content: { "application/json": { schema: SendDraftBodySchema } } },
  },
  responses: { 200: jsonResponse(MessageSchema, "The sent message."), 409: errorResponse("Not a draft.") },
});

export const listAttachmentsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/messages/{id}/attachments",
  tags,
  summary: "A message's attachments",
  request: { params: MessageParamsSchema },
  responses: { 200: jsonResponse(AttachmentListSchema, "Its attachments.") },
});

export const attachmentContentRoute = defineRoute("read", {
  method: "get",
  path: "/v1/messages/{id}/attachments/{att_id}/content",
  tags,
  summary: "Download an attachment",
  request: { params: AttachmentParamsSchema },
  responses: {
    200: { description: "The bytes.", content: { "application/octet-stream": { schema: z.string() } } },
  },
});

export const messageRawRoute = defineRoute("read", {
  method: "get",
  path: "/v1/messages/{id}/raw",
  tags,
  summary: "Get the received email",
  description:
    "The MIME of a message that came in by email, byte for byte as the service received it (`message/rfc822`). 404 (`raw_not_found`) for messages that did not come by email: replies (their sent email is at GET /v1/emails/{id}/content), notes and messages posted through the API.",
  request: { params: MessageParamsSchema },
  responses: {
    200: { description: "The received message.", content: { "message/rfc822": { schema: z.string() } } },
  },
});
