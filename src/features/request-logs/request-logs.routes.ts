import { defineRoute, jsonResponse } from "../../lib/openapi";
import { AccountParamsSchema } from "../accounts/accounts.routes";
import { RequestLogListSchema, RequestLogQuerySchema } from "./request-logs.schemas";

export const listRequestLogsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}/request-logs",
  tags: ["Accounts"],
  summary: "List request logs",
  description:
    "Every /v1 request made with the workspace's keys, newest first, kept for the account's `request_log_retention`. Logs are written through a queue after the response, so a request appears within seconds, not instantly. Requests with unknown keys belong to no workspace and are not listed.",
  request: { params: AccountParamsSchema, query: RequestLogQuerySchema },
  responses: { 200: jsonResponse(RequestLogListSchema, "A page of request logs.") },
});
