import { z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  ChangelogEntrySchema,
  ChangelogListQuerySchema,
  ChangelogListSchema,
  ChangelogParamsSchema,
  CreateChangelogBodySchema,
  MAX_BODY_BYTES,
  UpdateChangelogBodySchema,
} from "./changelog.schemas";
import { MAX_HTML_BYTES } from "./changelog.service";

const tags = ["Changelog"];

const STATES = `States: \`draft\` ↔ \`scheduled\`, \`draft\` → \`published\`, \`scheduled\` → \`published\`. \`scheduled\` needs \`published_at\` in the future and the minute cron publishes the entry at that time (\`updated_at\` becomes the moment it was published). \`published\` takes \`published_at\` now, or a given time that is not in the future (back-dating). A draft has no \`published_at\` (giving one is 400 \`invalid_published_at\`). A published entry stays published (400 \`invalid_status_transition\`): its text may still change, and deleting it takes it down.`;

const RENDERING = `\`body_markdown\` (at most ${MAX_BODY_BYTES} bytes) is rendered once, when written, into \`body_html\`: CommonMark with GitHub's extensions, raw HTML dropped, then sanitized with GitHub's allow-list (no script, no event attribute, no \`javascript:\` URL). HTML over ${MAX_HTML_BYTES} bytes is refused (400 \`body_too_large\`).`;

export const listChangelogRoute = defineRoute("read", {
  method: "get",
  path: "/v1/changelog",
  tags,
  summary: "List changelog entries",
  description:
    "The workspace's entries in every status, newest created first (the editor's view; the public page and feed order published entries by `published_at`). `limit` 20 by default (at most 100); `status` and `category` filter, and `total` counts the matching entries.",
  request: { query: ChangelogListQuerySchema },
  responses: { 200: jsonResponse(ChangelogListSchema, "A page of entries.") },
});

export const createChangelogRoute = defineRoute("write", {
  method: "post",
  path: "/v1/changelog",
  tags,
  summary: "Create a changelog entry",
  description: `A new entry, \`draft\` unless \`status\` says otherwise. The title is one line of 1 to 200 characters. ${RENDERING} ${STATES}`,
  request: { body: jsonBody(CreateChangelogBodySchema) },
  responses: { 201: jsonResponse(ChangelogEntrySchema, "The new entry.") },
});

export const getChangelogRoute = defineRoute("read", {
  method: "get",
  path: "/v1/changelog/{id}",
  tags,
  summary: "Get a changelog entry",
  request: { params: ChangelogParamsSchema },
  responses: { 200: jsonResponse(ChangelogEntrySchema, "The entry.") },
});

export const updateChangelogRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/changelog/{id}",
  tags,
  summary: "Update a changelog entry",
  description: `Changes the fields given; \`updated_at\` moves. ${RENDERING} ${STATES} A scheduled entry keeps its \`published_at\` unless one is given; moving it back to \`draft\` clears it. 409 \`changelog_entry_changed\` when the cron published the entry while this update was being made: read it and retry.`,
  request: { params: ChangelogParamsSchema, body: jsonBody(UpdateChangelogBodySchema) },
  responses: {
    200: jsonResponse(ChangelogEntrySchema, "The updated entry."),
    409: jsonResponse(ErrorSchema, "The entry's status changed meanwhile."),
  },
});

export const deleteChangelogRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/changelog/{id}",
  tags,
  summary: "Delete a changelog entry",
  description: "Deletes the entry in any status; a published one leaves the public page and the feed.",
  request: { params: ChangelogParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});
