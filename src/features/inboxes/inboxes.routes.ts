import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { pageQuery } from "../../lib/pagination";
import {
  CreateInboxBodySchema,
  InboxListSchema,
  InboxParamsSchema,
  InboxSchema,
  UpdateInboxBodySchema,
} from "./inboxes.schemas";

const tags = ["Inboxes"];

const SECRETS =
  "Each `secret` is answered in clear to write and admin keys, the keys that may write inboxes, on create, get, list and update: sending an entry back with its secret is how a writer keeps that secret (the list is replaced whole on every write), and a write key may replace any secret anyway, so seeing it grants nothing new. Read keys get every webhook with `secret: null`: a read-only key never receives a secret.";

const WEBHOOK_RULES = `\`webhooks\` replaces the whole list on every write (at most 10). An entry sent with its \`secret\` keeps it; an entry without one gets a new \`whsec_\` secret (32 random bytes, base64url), so every webhook has one. Secrets are stored encrypted. ${SECRETS} URLs must be \`https://\` to a public host: credentials, private, link-local, unique-local, reserved and (in production) loopback addresses are refused; \`http://\` is accepted only to loopback and only in development and test. \`events\` names at least one subscribable event, without repeats. Delivery: each event goes to the webhooks that were enabled and subscribed when it happened (for \`inbox.updated\`, the list as this write leaves it), as one signed POST (\`X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`, plus \`X-Webhook-Event\` and \`X-Webhook-Id\`); a 2xx acknowledges, anything else or no answer within 10 s is a failure, attempted once and never retried; redirects are not followed. Each attempt is recorded in the event stream (\`GET /v1/accounts/{id}/events\`).`;

const ADDRESS_RULES =
  "`email_address` is stored lowercase. Its domain must be a verified connection of this workspace (`POST /v1/connections`, then `/verify`), else 403 `inbox_domain_not_verified` with `domain` and `help`; the inbox's `connection_id` is that connection, and `DELETE /v1/connections/{id}` answers 409 while an inbox uses it. Only then is the address's uniqueness checked: it is unique across the whole service, not just the workspace, because inbound mail is routed by it, and 409 `email_address_taken` answers the same whether this workspace or another (which must have verified the same domain) holds it, naming neither; of two requests taking one address at once (two workspaces creating it, or moving inboxes to it), exactly one gets it, and an address an inbox leaves (deleted, or moved to another) is free again at once. `connection_id` may be left out; when sent it must be that connection (400 `connection_mismatch`, or `connection_not_found` for an id this workspace does not have).";
const ASSIGNMENT =
  "who takes new tickets: `round_robin` gives them to the workspace's active, available users in turn, `balanced` to the one with the fewest open tickets, both skipping anyone away or at their capacity and leaving the ticket unassigned when nobody can take it; see docs/assignment.md";
const ADDRESS_TAKEN = "The email address is already an inbox's address (in any workspace).";

export const createInboxRoute = defineRoute("write", {
  method: "post",
  path: "/v1/inboxes",
  tags,
  summary: "Create an inbox",
  description: `${ADDRESS_RULES} \`status_after_reply\` defaults to \`pending\`, \`assignment_rule\` to \`manual\` (${ASSIGNMENT}). Fires no event (there is no \`inbox.created\`; the inbox events are \`inbox.updated\` and \`inbox.deleted\`). ${WEBHOOK_RULES}`,
  request: { body: jsonBody(CreateInboxBodySchema) },
  responses: {
    201: jsonResponse(InboxSchema, "The new inbox."),
    409: errorResponse(ADDRESS_TAKEN),
  },
});

export const listInboxesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/inboxes",
  tags,
  summary: "List inboxes",
  description: `Page-based, unlike the other lists: \`page\` (from 1) and \`limit\` (default 50, at most 100); \`pagination.pages\` is the number of pages. Newest first. ${SECRETS}`,
  request: { query: pageQuery() },
  responses: { 200: jsonResponse(InboxListSchema, "A page of inboxes.") },
});

export const getInboxRoute = defineRoute("read", {
  method: "get",
  path: "/v1/inboxes/{id}",
  tags,
  summary: "Get an inbox",
  description: SECRETS,
  request: { params: InboxParamsSchema },
  responses: { 200: jsonResponse(InboxSchema, "The inbox.") },
});

export const updateInboxRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/inboxes/{id}",
  tags,
  summary: "Update an inbox",
  description: `Changes the fields sent. A new \`email_address\` follows the rules of POST /v1/inboxes (403 \`inbox_domain_not_verified\`, then 409 \`email_address_taken\`) and moves the inbox to its domain's connection; an inbox left at its address keeps its connection. A new \`assignment_rule\` applies to the tickets opened or reopened after it; tickets already assigned keep their assignee. Every successful update fires \`inbox.updated\` with the inbox's new \`id\`, \`name\` and \`email_address\`, recorded in the same transaction as the change. ${WEBHOOK_RULES}`,
  request: { params: InboxParamsSchema, body: jsonBody(UpdateInboxBodySchema) },
  responses: {
    200: jsonResponse(InboxSchema, "The inbox after the change."),
    409: errorResponse(ADDRESS_TAKEN),
  },
});

export const deleteInboxRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/inboxes/{id}",
  tags,
  summary: "Delete an inbox",
  description:
    "Deletes the inbox with its tags and tickets (and their messages). Fires `inbox.deleted` carrying the inbox as it last was, recorded in the same transaction; the cascaded tickets fire no `ticket.deleted`.",
  request: { params: InboxParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});
