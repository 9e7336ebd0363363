import { z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateTagBodySchema,
  TagListQuerySchema,
  TagListSchema,
  TagParamsSchema,
  TagSchema,
  UpdateTagBodySchema,
} from "./tags.schemas";

const tags = ["Tags"];

export const listTagsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/tags",
  tags,
  summary: "List tags",
  description:
    "Every tag of the workspace, newest first, as `{ data, count }`. Not paginated. `inbox_id` keeps one inbox's tags; an inbox that is not the workspace's simply has none.",
  request: { query: TagListQuerySchema },
  responses: { 200: jsonResponse(TagListSchema, "The tags.") },
});

export const createTagRoute = defineRoute("write", {
  method: "post",
  path: "/v1/tags",
  tags,
  summary: "Create a tag",
  description:
    "A tag belongs to one inbox of the workspace (404 for any other `inbox_id`). Its name, trimmed, is 1 to 50 characters and unique in the inbox whatever its case: 409 `tag_exists` otherwise. `color` is `#rrggbb`.",
  request: { body: jsonBody(CreateTagBodySchema) },
  responses: {
    201: jsonResponse(TagSchema, "The new tag."),
    404: jsonResponse(ErrorSchema, "No such inbox in this workspace."),
    409: jsonResponse(ErrorSchema, "The inbox already has a tag of this name."),
  },
});

export const getTagRoute = defineRoute("read", {
  method: "get",
  path: "/v1/tags/{id}",
  tags,
  summary: "Get a tag",
  request: { params: TagParamsSchema },
  responses: { 200: jsonResponse(TagSchema, "The tag.") },
});

export const updateTagRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/tags/{id}",
  tags,
  summary: "Update a tag",
  description:
    "Renames or recolors a tag (`color: null` clears it); a tag stays in its inbox. A name another tag of the inbox has, in any case, gives 409 `tag_exists`; changing only the case of its own name is allowed. Tickets keep the tag.",
  request: { params: TagParamsSchema, body: jsonBody(UpdateTagBodySchema) },
  responses: {
    200: jsonResponse(TagSchema, "The updated tag."),
    409: jsonResponse(ErrorSchema, "Another tag of the inbox has this name."),
  },
});

export const deleteTagRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/tags/{id}",
  tags,
  summary: "Delete a tag",
  description: "Deletes the tag and removes it from every ticket; the tickets themselves stay.",
  request: { params: TagParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});
