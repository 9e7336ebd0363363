import { z } from "@hono/zod-openapi";
import { defineRoute, jsonBody, jsonResponse } from "../../lib/openapi";
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
    "Changes `name`, `ticket_prefix` (applies to tickets created afterwards), `request_log_retention` (5m to 90d; older logs are deleted by the next retention run), and the default tracking flags for new emails. Plan and status are not changeable through the API.",
  request: { params: AccountParamsSchema, body: jsonBody(UpdateAccountBodySchema) },
  responses: { 200: jsonResponse(AccountSchema, "The updated account.") },
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
