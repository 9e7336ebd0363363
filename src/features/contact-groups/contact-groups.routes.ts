import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  ContactGroupListQuerySchema,
  ContactGroupListSchema,
  ContactGroupParamsSchema,
  ContactGroupSchema,
  CreateContactGroupBodySchema,
  UpdateContactGroupBodySchema,
} from "./contact-groups.schemas";

export const tags = ["Contact groups"];

export const listContactGroupsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/contact-groups",
  tags,
  summary: "List contact groups",
  description:
    "The workspace's contact groups, newest first, `limit` 50 by default (at most 100). `total` counts all of them.",
  request: { query: ContactGroupListQuerySchema },
  responses: { 200: jsonResponse(ContactGroupListSchema, "A page of contact groups.") },
});

export const createContactGroupRoute = defineRoute("write", {
  method: "post",
  path: "/v1/contact-groups",
  tags,
  summary: "Create a contact group",
  description:
    "A named set of the workspace's customers that campaigns send to. The name, trimmed, is 1 to 100 characters and unique in the workspace whatever its case: 409 `contact_group_exists` otherwise. An empty `description` is stored as null. The group starts with no members.",
  request: {
    headers: idempotencyHeader("A retried create answers the first group, not 409 `contact_group_exists`."),
    body: jsonBody(CreateContactGroupBodySchema),
  },
  responses: {
    201: jsonResponse(ContactGroupSchema, "The new contact group."),
    409: jsonResponse(
      ErrorSchema,
      "The workspace already has a contact group of this name (`contact_group_exists`), or the Idempotency-Key was used with another body (`idempotency_key_reused`).",
    ),
  },
});

export const getContactGroupRoute = defineRoute("read", {
  method: "get",
  path: "/v1/contact-groups/{id}",
  tags,
  summary: "Get a contact group",
  request: { params: ContactGroupParamsSchema },
  responses: { 200: jsonResponse(ContactGroupSchema, "The contact group.") },
});

export const updateContactGroupRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/contact-groups/{id}",
  tags,
  summary: "Update a contact group",
  description:
    "Renames the group or changes its description (`null` clears it). A name another group of the workspace has, in any case, gives 409 `contact_group_exists`; changing only the case of its own name is allowed. Members are changed through the members routes.",
  request: { params: ContactGroupParamsSchema, body: jsonBody(UpdateContactGroupBodySchema) },
  responses: {
    200: jsonResponse(ContactGroupSchema, "The updated contact group."),
    409: jsonResponse(ErrorSchema, "Another contact group of the workspace has this name."),
  },
});

export const deleteContactGroupRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/contact-groups/{id}",
  tags,
  summary: "Delete a contact group",
  description: "Deletes the group and its memberships; the customers themselves stay.",
  request: { params: ContactGroupParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});
