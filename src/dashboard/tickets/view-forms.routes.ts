import { z } from "@hono/zod-openapi";
import { ViewParamsSchema } from "../../features/views/views.schemas";
import { dashboardRoute, formBody } from "../routes";
import { TicketsQuerySchema } from "./tickets.routes";

/** The ticket list's filters, as its filter form sends them (an empty value means any). */
export const ListFiltersFormSchema = TicketsQuerySchema.pick({
  status: true,
  priority: true,
  inbox_id: true,
  assignee_id: true,
  customer_id: true,
  tag: true,
  q: true,
});

const Sharing = z.enum(["workspace", "me"]).openapi({
  description: "`workspace`: every user of the workspace sees the view; `me`: only the signed-in user.",
});

/** Checked again by POST and PATCH /v1/views' own schema, so the rules and messages are the API's. */
const ViewName = z.string().max(1000).openapi({ description: "The view's name (one line, 100 characters)." });

/** Creating and editing: the list's filters go along, to show the same list again after. */
export const ViewFormSchema = ListFiltersFormSchema.extend({ name: ViewName, sharing: Sharing });

const shared =
  "Goes through the service of the /v1/views routes with the signed-in user as the reader: a personal view of another user is a 404, a built-in view a 409 page. Refused input (a bad name, the view limit) shows the list again with the problem beside the forms (400, 409).";

export const createViewPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/views",
  summary: "Save the list's filters as a view",
  description: `Creates a view, as POST /v1/views does, from the ticket list's filters (empty ones left out), shared with the workspace or personal to the signed-in user; redirects (303) to the list with the view open. ${shared}`,
  request: { body: formBody(ViewFormSchema) },
  success: 303,
});

export const editViewPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/views/{id}/edit",
  summary: "Rename a view or change its sharing",
  description: `Sets the view's name and sharing (\`me\` makes it the signed-in user's), as PATCH /v1/views/{id} does; redirects (303) to the list, its filters kept, with the view open. ${shared}`,
  request: { params: ViewParamsSchema, body: formBody(ViewFormSchema) },
  success: 303,
});

export const viewFiltersPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/views/{id}/filters",
  summary: "Save the list's filters to a view",
  description: `Replaces the view's filters with the ticket list's, as PATCH /v1/views/{id} with \`filters\` does; a saved \`updated_after\`, which the dashboard's list cannot show, is kept. Redirects (303) to the list with the view open. ${shared}`,
  request: { params: ViewParamsSchema, body: formBody(ListFiltersFormSchema) },
  success: 303,
});

export const deleteViewPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/views/{id}/delete",
  summary: "Delete a view",
  description: `Deletes the view as DELETE /v1/views/{id} does; the button asks for confirmation first. Redirects (303) to the list. ${shared}`,
  request: { params: ViewParamsSchema },
  success: 303,
});
