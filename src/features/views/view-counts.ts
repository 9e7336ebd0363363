import type { Db } from "../../db/client";
import { slaFilterOf } from "../sla/sla-filter";
import { parseSearch } from "../tickets/search-query";
import type { TicketFilter } from "../tickets/tickets.repo";
import { ticketTotalQuery } from "../tickets/tickets.repo";
import type { ViewFilters } from "./views.schemas";

/** The ticket list's filter as GET /v1/tickets takes it: `q` the words as written. */
export type ViewTicketFilter = Omit<TicketFilter, "accountId" | "q"> & { q?: string | undefined };

/**
 * The ticket list's filter for a view's filters, `me` being `me`; null when the filters name `me`
 * and there is no one to be (an API call without `user_id`).
 */
export function ticketFilterOf(filters: ViewFilters, me: string | null): ViewTicketFilter | null {
  const { assignee_id: assignee } = filters;
  if (assignee === "me" && me === null) return null;
  return {
    status: filters.status,
    priority: filters.priority,
    inboxId: filters.inbox_id,
    customerId: filters.customer_id,
    assigneeId: assignee === "me" ? me : assignee === "none" ? null : assignee,
    tag: filters.tag,
    q: filters.q,
    updatedAfter: filters.updated_after ? Date.parse(filters.updated_after) : undefined,
    ...slaFilterOf(filters),
  };
}

/**
 * Each filter's ticket count (null for a null filter), all in one batch: each is the ticket
 * list's own total, a counter row where the filter maps onto one, else a count along an index
 * (docs/views.md lists which is which).
 */
export async function countTickets(
  db: Db,
  accountId: string,
  filters: Array<ViewTicketFilter | null>,
): Promise<Array<number | null>> {
  // A view's words were checked when it was saved (`checkViewSearch`), so they parse.
  const queries = filters.flatMap((f) =>
    f ? [ticketTotalQuery(db, { ...f, q: f.q === undefined ? undefined : parseSearch(f.q), accountId })] : [],
  );
  if (queries.length === 0) return filters.map(() => null);
  const totals = await db.batch(queries as unknown as [(typeof queries)[0], ...typeof queries]);
  let next = 0;
  return filters.map((f) => (f ? (totals[next++]?.[0]?.total ?? 0) : null));
}

/** A view's `q` must be a search the ticket list can run: 400 now rather than at every count. */
export function checkViewSearch(filters: ViewFilters | undefined): void {
  if (filters?.q !== undefined) parseSearch(filters.q);
}
