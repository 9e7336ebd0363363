import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateSavedReplyBodySchema,
  PreviewBodySchema,
  PreviewSchema,
  SavedReplyListQuerySchema,
  SavedReplyListSchema,
  SavedReplyParamsSchema,
  SavedReplySchema,
  SYNTAX,
  UpdateSavedReplyBodySchema,
} from "./saved-replies.schemas";

const tags = ["Saved replies"];

const CHECKS = `The body is checked when saved: 422 \`template_tag_not_allowed\` for a \`{% %}\` tag, \`unknown_variable\` or \`unknown_filter\` naming what is not allowed, \`invalid_template\` for Liquid that does not parse. ${SYNTAX} \`inbox_id\` must be an inbox of the workspace (404); \`actions.assignee_id\` an active user (400).`;

const RENDERING =
  "Rendering for a ticket: values are the ticket's own (`customer.first_name` is the first word of the customer's name); an empty value counts as missing. A variable without a value and without a `default` is 422 `missing_variable` naming it, so nothing is ever sent with `{{ … }}` in it. Values are escaped for Markdown and then for HTML: a customer's name cannot add emphasis, a link or HTML. The Markdown is then rendered as the changelog's is (CommonMark with GitHub's extensions, raw HTML dropped, GitHub's sanitizing allow-list). `user` is the person writing: the signed-in user in the dashboard; an API key is no person, so through the API `{{ user.name }}` has no value and needs a default. A reply scoped to an inbox is usable only on that inbox's tickets (422 `saved_reply_other_inbox`).";

export const listSavedRepliesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/saved-replies",
  tags,
  summary: "List saved replies",
  description:
    "Newest first. `inbox_id` keeps the replies usable on that inbox's tickets: its own and those of no inbox.",
  request: { query: SavedReplyListQuerySchema },
  responses: { 200: jsonResponse(SavedReplyListSchema, "A page of saved replies.") },
});

export const createSavedReplyRoute = defineRoute("write", {
  method: "post",
  path: "/v1/saved-replies",
  tags,
  summary: "Create a saved reply",
  description: `A reply to reuse (a macro): a name, a Markdown body with variables, an optional inbox scope and optional \`actions\` applied to the ticket with it. ${CHECKS}`,
  request: {
    headers: idempotencyHeader("A retried create answers the first saved reply: no second one."),
    body: jsonBody(CreateSavedReplyBodySchema),
  },
  responses: {
    201: jsonResponse(SavedReplySchema, "The new saved reply."),
    409: errorResponse("The Idempotency-Key was used with another body (`idempotency_key_reused`)."),
    422: errorResponse("The body is not an allowed template."),
  },
});

export const getSavedReplyRoute = defineRoute("read", {
  method: "get",
  path: "/v1/saved-replies/{id}",
  tags,
  summary: "Get a saved reply",
  request: { params: SavedReplyParamsSchema },
  responses: { 200: jsonResponse(SavedReplySchema, "The saved reply.") },
});

export const updateSavedReplyRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/saved-replies/{id}",
  tags,
  summary: "Update a saved reply",
  description: `Changes the fields given; \`actions\` is replaced whole, \`inbox_id: null\` makes it usable on every inbox. ${CHECKS}`,
  request: { params: SavedReplyParamsSchema, body: jsonBody(UpdateSavedReplyBodySchema) },
  responses: {
    200: jsonResponse(SavedReplySchema, "The saved reply."),
    422: errorResponse("The body is not an allowed template."),
  },
});

export const deleteSavedReplyRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/saved-replies/{id}",
  tags,
  summary: "Delete a saved reply",
  description: "Messages sent with it keep their text.",
  request: { params: SavedReplyParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});

export const previewSavedReplyRoute = defineRoute("read", {
  method: "post",
  path: "/v1/saved-replies/{id}/preview",
  tags,
  summary: "Preview a saved reply on a ticket",
  description: `What POST /v1/tickets/{id}/messages with \`saved_reply_id\` would send (\`body_text\`: the Markdown with its variables filled in; \`body_html\`: rendered and sanitized) and the \`actions\` it would apply; nothing is sent or changed. ${RENDERING}`,
  request: { params: SavedReplyParamsSchema, body: jsonBody(PreviewBodySchema) },
  responses: {
    200: jsonResponse(PreviewSchema, "The rendered reply."),
    422: errorResponse("A variable has no value (`missing_variable`) or the reply belongs to another inbox."),
  },
});
