import { z } from "@hono/zod-openapi";
import { offsetQuery } from "../../lib/pagination";
import { dashboardRoute } from "../routes";
import { detailParams, filterField } from "./filter-fields";

export const RequestLogFiltersSchema = offsetQuery(50).extend({
  status: filterField(z.coerce.number().int().min(100).max(599), "Only this status code."),
  path: filterField(z.string().max(200), "Only paths containing this text."),
  key_id: filterField(z.string().max(64), "Only requests made with this key."),
});

export const requestLogsPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/request-logs",
  summary: "Request logs",
  description:
    "Every /v1 request made with the workspace's keys, newest first, as GET /v1/accounts/{id}/request-logs lists them (they arrive through a queue within seconds): time, method, path, status, duration, key prefix, request id. Filters: status (exact), path (contains; the API has no such filter), key (any of the workspace's keys, revoked ones included). Every signed-in person may read it.",
  request: { query: RequestLogFiltersSchema },
});

export const requestLogPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/request-logs/{id}",
  summary: "Request log entry",
  description:
    "One request (by its request id), with every field the API returns for it. Bodies and headers are never recorded, so they are not shown. Another workspace's request id is a 404.",
  request: { params: detailParams("req_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});
