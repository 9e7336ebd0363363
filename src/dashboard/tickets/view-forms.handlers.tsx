import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import {
  CreateViewBodySchema,
  UpdateViewBodySchema,
  type ViewFilters,
} from "../../features/views/views.schemas";
import { changeView, createView, customViewOf, removeView } from "../../features/views/views.service";
import { createRouter } from "../../lib/router";
import { asApiBody, formProblem } from "../inboxes/form-problem";
import { dashboardViewer, showTicketList } from "./ticket-list";
import { TicketsQuerySchema } from "./tickets.routes";
import type { Refusal } from "./view-forms";
import {
  createViewPageRoute,
  deleteViewPageRoute,
  editViewPageRoute,
  type ListFiltersFormSchema,
  viewFiltersPageRoute,
} from "./view-forms.routes";
import { filtersKey } from "./views-sidebar";

type Filters = Record<string, string>;

/** The list's filters as a view saves them: an empty one (a select's Any) left out, text trimmed. */
function viewFiltersOf(fields: z.infer<typeof ListFiltersFormSchema>): Filters {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, value]) => (value?.trim() ? [[name, value.trim()]] : [])),
  );
}

function listPath(filters: Filters, viewId: string | undefined, done: string) {
  const params = new URLSearchParams(filtersKey(filters));
  if (viewId) params.set("view", viewId);
  params.set("done", done);
  return `/dashboard/tickets?${params}`;
}

/** The list the form was sent from, again, with what the service refused beside the forms. */
function showRefused(
  c: Context<AppEnv>,
  filters: Filters,
  viewId: string | undefined,
  refusal: Refusal,
  status: 400 | 409,
) {
  // The filters passed the list's own fields in the form's schema, so they parse here.
  const query = TicketsQuerySchema.parse({ ...filters, ...(viewId ? { view: viewId } : {}) });
  return showTicketList(c, query, refusal, status);
}

/**
 * The view forms of the ticket list. Each goes through the service of /v1/views with the
 * signed-in user as the reader, so its rules are the API's: another user's personal view is a
 * 404, a built-in view a 409 (both checked before the input, as error pages).
 */
export const viewFormsRouter = createRouter()
  .openapi(createViewPageRoute, async (c) => {
    const { name, sharing, ...fields } = c.req.valid("form");
    const viewer = dashboardViewer(c);
    const filters = viewFiltersOf(fields);
    try {
      const owner = sharing === "me" ? { owner_user_id: viewer.userId } : {};
      const input = asApiBody(CreateViewBodySchema, { name, filters, ...owner });
      const view = await createView(c.var.ctx, input, viewer);
      return c.redirect(listPath(filters, view?.id, "view_created"), 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return showRefused(
        c,
        filters,
        undefined,
        { form: "create", problem, values: { name, sharing } },
        status,
      );
    }
  })
  .openapi(editViewPageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { name, sharing, ...fields } = c.req.valid("form");
    const viewer = dashboardViewer(c);
    const filters = viewFiltersOf(fields);
    await customViewOf(c.var.ctx, id, viewer);
    try {
      const owner = sharing === "me" ? viewer.userId : null;
      const input = asApiBody(UpdateViewBodySchema, { name, owner_user_id: owner });
      await changeView(c.var.ctx, id, input, viewer);
      return c.redirect(listPath(filters, id, "view_saved"), 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return showRefused(c, filters, id, { form: "edit", problem, values: { name, sharing } }, status);
    }
  })
  .openapi(viewFiltersPageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const viewer = dashboardViewer(c);
    const filters = viewFiltersOf(c.req.valid("form"));
    const saved = JSON.parse((await customViewOf(c.var.ctx, id, viewer)).filters) as ViewFilters;
    // The dashboard's list has no `updated_after`: saving what it shows keeps the view's.
    const kept = saved.updated_after ? { updated_after: saved.updated_after } : {};
    try {
      const input = asApiBody(UpdateViewBodySchema, { filters: { ...filters, ...kept } });
      await changeView(c.var.ctx, id, input, viewer);
      return c.redirect(listPath(filters, id, "view_filters"), 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return showRefused(c, filters, id, { form: "filters", problem }, status);
    }
  })
  .openapi(deleteViewPageRoute, async (c) => {
    await removeView(c.var.ctx, c.req.valid("param").id, dashboardViewer(c));
    return c.redirect("/dashboard/tickets?done=view_deleted", 303);
  });
