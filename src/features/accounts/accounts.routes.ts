import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { AccountListSchema, AccountSchema, UpdateAccountBodySchema, UsageSchema } from "./accounts.schemas";

export const AccountParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const listAccountsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts",
  tags: ["Accounts"],
  summary: "List accounts",
  description: "The workspace the key belongs to, as a one-element list: a key never sees another workspace.",
  responses: { 200: jsonResponse(AccountListSchema, "The caller's account.") },
});

export const getAccountRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}",
  tags: ["Accounts"],
  summary: "Get an account",
  description: "Any id other than the key's own workspace answers 404.",
  request: { params: AccountParamsSchema },
  responses: { 200: jsonResponse(AccountSchema, "The account.") },
});

export const updateAccountRoute = defineRoute("admin", {
  method: "patch",
  path: "/v1/accounts/{id}",
  tags: ["Accounts"],
  summary: "Update account settings",
  description:
    "Changes `name`, `ticket_prefix` (applies to tickets created afterwards), `request_log_retention` (5m to 90d; older logs are deleted by the next retention run), `email_retention`, and the default tracking flags for new emails. Plan and status are not changeable through the API.\n\n`email_retention` is whole days written `Nd`, from `1d` to the plan's maximum (`email_retention_max`: free 30d, starter 45d, pro 90d, enterprise 400d); anything else not of that form is 400 `validation_error`, and more than the plan keeps is 422 `validation_error` naming the plan and its maximum. Emails older than the retention are archived per UTC day (`GET /v1/emails/archives`) and then deleted, with their recipients, tags, events and stored message, by the minute cron. Retention counts whole UTC days: an email is kept at least its retention and at most a day more, so each day is archived whole. Lowering the retention deletes the older history at the next runs, after archiving it. A plan change down caps the retention in force at the new plan's maximum (the choice is kept and applies again if the plan goes back up); until the workspace sets it, the retention follows the plan's maximum.",
  request: { params: AccountParamsSchema, body: jsonBody(UpdateAccountBodySchema) },
  responses: {
    200: jsonResponse(AccountSchema, "The updated account."),
    422: errorResponse("`email_retention` is more than the plan keeps; `details` names the field."),
  },
});

export const accountUsageRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}/usage",
  tags: ["Accounts"],
  summary: "Quota usage",
  description:
    "Every accumulating quota of the plan with `current`, `limit` and `percentage`. Email quotas count per UTC month, day and hour; storage and team members are totals. The rate limit applies per key and is shown under `limits`.",
  request: { params: AccountParamsSchema },
  responses: { 200: jsonResponse(UsageSchema, "Usage against the plan's quotas.") },
});
