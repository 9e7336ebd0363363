import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { TicketListSchema } from "../tickets/tickets.schemas";
import {
  CreateViewBodySchema,
  MAX_VIEWS,
  UpdateViewBodySchema,
  ViewListSchema,
  ViewParamsSchema,
  ViewSchema,
  ViewTicketsQuerySchema,
  ViewUserQuerySchema,
} from "./views.schemas";

const tags = ["Views"];

const COUNTS =
  "`count` is live: the ticket list's own total for the filters. Status, priority, both, inbox, assignee (a user or `me`) or tag alone are read from trigger-kept counters; open and unassigned, or open and one assignee, count index entries of the open tickets only; any other combination counts the workspace's tickets along an index (see docs/views.md).";
const WHO =
  "An API key is the workspace's: it reaches every view by id. Without `user_id` it lists the built-in and shared views, and a view of `me` has `count: null`; with `user_id`, that user's personal views are listed too and `me` is them. A personal view's `me` is always its owner.";

export const listViewsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/views",
  tags,
  summary: "List views",
  description: `The built-in views first (Unassigned \`vw_unassigned\`, Mine \`vw_mine\`, All open \`vw_all_open\`, in every workspace), then the workspace's views oldest first, as \`{ data, count }\`. Not paginated: a workspace holds at most ${MAX_VIEWS} views besides the built-in ones. ${WHO} ${COUNTS}`,
  request: { query: ViewUserQuerySchema },
  responses: { 200: jsonResponse(ViewListSchema, "The views, each with its count.") },
});

export const createViewRoute = defineRoute("write", {
  method: "post",
  path: "/v1/views",
  tags,
  summary: "Create a view",
  description: `A saved set of the ticket list's filters. \`filters\` is checked by GET /v1/tickets' own query schema (400 on an unknown field or value). Without \`owner_user_id\` the view is shared with the workspace; with it, it is that user's personal view (shown to them alone in the dashboard, deleted with them). At most ${MAX_VIEWS} views per workspace: 409 \`view_limit_reached\` past it.`,
  request: { body: jsonBody(CreateViewBodySchema) },
  responses: {
    201: jsonResponse(ViewSchema, "The new view, with its count."),
    409: errorResponse("The workspace holds the most views it may (`view_limit_reached`)."),
  },
});

export const getViewRoute = defineRoute("read", {
  method: "get",
  path: "/v1/views/{id}",
  tags,
  summary: "Get a view",
  description: `${WHO} ${COUNTS}`,
  request: { params: ViewParamsSchema, query: ViewUserQuerySchema },
  responses: { 200: jsonResponse(ViewSchema, "The view, with its count.") },
});

export const updateViewRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/views/{id}",
  tags,
  summary: "Update a view",
  description:
    "Renames the view, replaces its filters (whole), or shares it (`owner_user_id: null`) or gives it to a user. A built-in view gives 409 `builtin_view`.",
  request: { params: ViewParamsSchema, body: jsonBody(UpdateViewBodySchema) },
  responses: {
    200: jsonResponse(ViewSchema, "The updated view."),
    409: errorResponse("A built-in view cannot be changed (`builtin_view`)."),
  },
});

export const deleteViewRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/views/{id}",
  tags,
  summary: "Delete a view",
  description: "Deletes the view; tickets are untouched. A built-in view gives 409 `builtin_view`.",
  request: { params: ViewParamsSchema },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted."),
    409: errorResponse("A built-in view cannot be deleted (`builtin_view`)."),
  },
});

export const viewTicketsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/views/{id}/tickets",
  tags,
  summary: "List a view's tickets",
  description:
    "The tickets the view's filters match now: exactly GET /v1/tickets with those filters (`me` replaced by the user; `assignee_id=none` is the unassigned ones), paginated as it is. A view of `me` read with no user gives 400 `user_required`.",
  request: { params: ViewParamsSchema, query: ViewTicketsQuerySchema },
  responses: { 200: jsonResponse(TicketListSchema, "A page of the view's tickets.") },
});
