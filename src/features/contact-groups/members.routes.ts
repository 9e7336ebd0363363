import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { tags } from "./contact-groups.routes";
import {
  AddContactGroupMembersBodySchema,
  AddContactGroupMembersResultSchema,
  ContactGroupMemberListQuerySchema,
  ContactGroupMemberListSchema,
  ContactGroupMemberParamsSchema,
  ContactGroupParamsSchema,
  MAX_MEMBERS_PER_CALL,
} from "./contact-groups.schemas";

export const listMembersRoute = defineRoute("read", {
  method: "get",
  path: "/v1/contact-groups/{id}/members",
  tags,
  summary: "List a contact group's members",
  description:
    "The group's members as customers with `added_at`, the most recently added first (members added by one call are ordered by customer id, newest first), `limit` 50 by default (at most 100). `total` is the group's `member_count`.",
  request: { params: ContactGroupParamsSchema, query: ContactGroupMemberListQuerySchema },
  responses: { 200: jsonResponse(ContactGroupMemberListSchema, "A page of members.") },
});

export const addMembersRoute = defineRoute("write", {
  method: "post",
  path: "/v1/contact-groups/{id}/members",
  tags,
  summary: "Add members to a contact group",
  description: `Adds 1 to ${MAX_MEMBERS_PER_CALL} members at once, all or nothing. Each entry names a customer by \`email\` (with an optional \`name\`) or by \`customer_id\`. An address the workspace has no customer for creates one, exactly as POST /v1/customers would (lowercase, \`name\` if given); an existing customer is never changed, so its name stays. Blocked and unsubscribed customers may be members: blocking only stops tickets, and campaigns skip unsubscribed customers when they send. Every \`customer_id\` must be a customer of this workspace: otherwise nothing is added and the answer is 404. Customers already in the group, and entries naming a customer another entry of the call already named, are skipped, so \`added + skipped\` is the number of entries.`,
  request: {
    params: ContactGroupParamsSchema,
    headers: idempotencyHeader(
      "A retried add answers the first `added` and `skipped` (a plain retry would answer all skipped) and enrols no one again. The key is bound to this group: on another group it is a 409.",
    ),
    body: jsonBody(AddContactGroupMembersBodySchema),
  },
  responses: {
    200: jsonResponse(AddContactGroupMembersResultSchema, "How many joined and how many were skipped."),
    409: errorResponse("The Idempotency-Key was used with another body (`idempotency_key_reused`)."),
  },
});

export const removeMemberRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/contact-groups/{id}/members/{customer_id}",
  tags,
  summary: "Remove a member from a contact group",
  description:
    "Removes the customer from the group; the customer stays. 404 when the group is not the workspace's or the customer is not a member.",
  request: { params: ContactGroupMemberParamsSchema },
  responses: {
    200: jsonResponse(
      z.object({ contact_group_id: z.string(), customer_id: z.string(), deleted: z.literal(true) }),
      "Removed.",
    ),
  },
});
