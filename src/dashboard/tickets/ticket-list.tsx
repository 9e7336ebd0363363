import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { findCustomer } from "../../features/customers/customers.repo";
import { listTickets } from "../../features/tickets/tickets.service";
import { listViews, showView } from "../../features/views/views.service";
import { renderPage, sessionOf } from "../page";
import { LIST_DONE } from "./labels";
import { TicketsListPage } from "./list.page";
import { workspaceChoices } from "./lookups";
import type { TicketsQuerySchema } from "./tickets.routes";
import type { Refusal } from "./view-forms";

type Query = z.infer<typeof TicketsQuerySchema>;

/** How the dashboard reads views: the shared ones and the signed-in user's own, `me` being them. */
export const dashboardViewer = (c: Context<AppEnv>) => ({
  userId: sessionOf(c).userId,
  seesEveryView: false,
});

/**
 * The ticket list for `query`, its views in the sidebar and, when `view` names a saved view, the
 * forms that manage it (another user's personal view is a 404). A refused view form comes back
 * here with its problem and what was typed.
 */
export async function showTicketList(
  c: Context<AppEnv>,
  query: Query,
  refusal?: Refusal,
  status: 200 | 400 | 409 = 200,
) {
  const ctx = c.var.ctx;
  const viewer = dashboardViewer(c);
  // `none` and `me`, as views save them: the unassigned tickets, the signed-in user's.
  const assignee =
    query.assignee_id === "me" ? viewer.userId : query.assignee_id === "none" ? null : query.assignee_id;
  const filter = {
    status: query.status || undefined,
    priority: query.priority || undefined,
    inboxId: query.inbox_id || undefined,
    assigneeId: assignee || (assignee === null ? null : undefined),
    customerId: query.customer_id || undefined,
    tag: query.tag?.trim() || undefined,
    q: query.q?.trim() || undefined,
  };
  const [list, customer, views, open] = await Promise.all([
    listTickets(ctx, filter, { limit: query.limit, offset: query.offset }),
    filter.customerId ? findCustomer(ctx.db, ctx.accountId, filter.customerId) : null,
    listViews(ctx, viewer),
    query.view ? showView(ctx, query.view, viewer) : null,
  ]);
  const named = [filter.assigneeId, ...list.data.map((ticket) => ticket.assignee_id)];
  const choices = await workspaceChoices(ctx.db, ctx.accountId, named);
  return renderPage(
    c,
    { title: "Tickets", nav: "Tickets", status },
    <TicketsListPage
      list={list}
      query={query}
      choices={choices}
      customer={customer?.email}
      views={views.data}
      notice={query.done ? LIST_DONE[query.done] : undefined}
      viewForms={{ open: open?.builtin ? null : (open ?? null), refusal, csrfToken: c.var.csrfToken }}
    />,
  );
}
