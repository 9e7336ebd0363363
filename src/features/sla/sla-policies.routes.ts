import { z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateSlaPolicyBodySchema,
  SlaPolicyListSchema,
  SlaPolicyParamsSchema,
  SlaPolicySchema,
  UpdateSlaPolicyBodySchema,
} from "./sla-policies.schemas";

const tags = ["SLA policies"];

const RULES =
  "A ticket runs under the enabled policy that covers its inbox when it is created, and keeps that policy (its `sla.policy_id`). Edits (targets, hours, pause statuses, warning) apply to new tickets and to a ticket's due times the next time a write moves its SLA (a message, a status or priority change); disabling a policy or taking an inbox out of it leaves its tickets' SLA as it is and gives new tickets none. Deleting a policy stops its tickets' SLA where it stands: their `sla` stays as history, writes no longer move it. See docs/sla.md.";

export const listSlaPoliciesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/sla-policies",
  tags,
  summary: "List SLA policies",
  description: "Every SLA policy of the workspace, oldest first, as `{ data, count }`. Not paginated.",
  responses: { 200: jsonResponse(SlaPolicyListSchema, "The policies.") },
});

export const createSlaPolicyRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/sla-policies",
  tags,
  summary: "Create an SLA policy",
  description: `Response and resolution targets per priority, counted in calendar or business hours, for the inboxes it covers. Defaults: \`hours\` \`"calendar"\`, \`pause_statuses\` \`["pending", "on_hold"]\`, \`warning_before\` 30, \`enabled\` true, \`inbox_ids\` none. ${RULES}`,
  request: { body: jsonBody(CreateSlaPolicyBodySchema) },
  responses: {
    201: jsonResponse(SlaPolicySchema, "The new policy."),
    404: jsonResponse(ErrorSchema, "An inbox that is not the workspace's."),
    409: jsonResponse(ErrorSchema, "`inbox_has_sla_policy`: another policy covers one of the inboxes."),
  },
});

export const getSlaPolicyRoute = defineRoute("read", {
  method: "get",
  path: "/v1/sla-policies/{id}",
  tags,
  summary: "Get an SLA policy",
  request: { params: SlaPolicyParamsSchema },
  responses: { 200: jsonResponse(SlaPolicySchema, "The policy.") },
});

export const updateSlaPolicyRoute = defineRoute("admin", {
  method: "patch",
  path: "/v1/sla-policies/{id}",
  tags,
  summary: "Update an SLA policy",
  description: `Changes the fields sent; \`inbox_ids\` and \`targets\` replace the stored ones whole. ${RULES}`,
  request: { params: SlaPolicyParamsSchema, body: jsonBody(UpdateSlaPolicyBodySchema) },
  responses: {
    200: jsonResponse(SlaPolicySchema, "The updated policy."),
    409: jsonResponse(ErrorSchema, "`inbox_has_sla_policy`: another policy covers one of the inboxes."),
  },
});

export const deleteSlaPolicyRoute = defineRoute("admin", {
  method: "delete",
  path: "/v1/sla-policies/{id}",
  tags,
  summary: "Delete an SLA policy",
  description: `Deletes the policy and frees its inboxes. ${RULES}`,
  request: { params: SlaPolicyParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});
