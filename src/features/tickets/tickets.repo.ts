import { and, asc, count, desc, eq, gt, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { counterSum } from "../../db/counters";
import { accounts, customers, ticketCounts, ticketFacetCounts, tickets } from "../../db/schema";
import { tagNameKey } from "../tags/tags.service";
import { searchCondition, searchHits } from "./search.repo";
import type { SearchQuery } from "./search-query";

export type TicketRow = typeof tickets.$inferSelect;

/** A ticket as the API shows it: the row, its customer, and its tag names. */
export const ticketView = {
  ticket: tickets,
  customerEmail: customers.email,
  customerName: customers.name,
  tagNames: sql<string>`(SELECT json_group_array(tg.name) FROM ticket_tags tt JOIN tags tg ON tg.id = tt.tag_id WHERE tt.ticket_id = ${tickets.id} AND tt.account_id = ${tickets.accountId})`,
};

export type TicketView = {
  ticket: TicketRow;
  customerEmail: string;
  customerName: string | null;
  tagNames: string;
};

/** The query of `findTicket`, for a batch of reads. */
export const findTicketQuery = (db: Db, accountId: string, id: string) =>
  db
    .select(ticketView)
    .from(tickets)
    .innerJoin(customers, eq(customers.id, tickets.customerId))
    .where(and(eq(tickets.accountId, accountId), eq(tickets.id, id)))
    .limit(1);

export async function findTicket(db: Db, accountId: string, id: string): Promise<TicketView | null> {
  const rows = await findTicketQuery(db, accountId, id);
  return rows[0] ?? null;
}

/** The query of `nextTicketNumber`, for a batch with other writes; it answers at most one row. */
export const nextTicketNumberQuery = (db: Db, accountId: string) =>
  db
    .update(accounts)
    .set({ ticketSequence: sql`${accounts.ticketSequence} + 1` })
    .where(eq(accounts.id, accountId))
    .returning({ number: accounts.ticketSequence, prefix: accounts.ticketPrefix });

export type TicketSequence = { number: number; prefix: string };

/** Takes the workspace's next ticket number; numbers are never reused, even if creation then fails. */
export async function nextTicketNumber(db: Db, accountId: string): Promise<TicketSequence | null> {
  const rows = await nextTicketNumberQuery(db, accountId);
  return rows[0] ?? null;
}

export interface TicketFilter {
  accountId: string;
  status?: TicketRow["status"] | undefined;
  priority?: TicketRow["priority"] | undefined;
  inboxId?: string | undefined;
  customerId?: string | undefined;
  /** A user's id, or null for unassigned tickets. */
  assigneeId?: string | null | undefined;
  tag?: string | undefined;
  /** Full-text search (search-query.ts): ranks the page by relevance, then newest first. */
  q?: SearchQuery | undefined;
  updatedAfter?: number | undefined;
  /** Tickets that missed an SLA target (true) or did not (false). */
  slaBreached?: boolean | undefined;
  /** Tickets with a running SLA target due before this instant, listed soonest due first. */
  slaDueBefore?: number | undefined;
}

/**
 * A tag on at most this many tickets is listed from its ticket_tags rows (sorted, at most this
 * many); a commoner one by walking the tickets in order and checking each, which finds a page
 * within a few thousand tickets. Either way a page costs about the same at 100,000 tickets.
 */
export const RARE_TAG_TICKETS = 2_000;

function whereOf(f: TicketFilter, rareTag: boolean): SQL | undefined {
  return and(
    rareTag ? sql`+${tickets.accountId} = ${f.accountId}` : eq(tickets.accountId, f.accountId),
    f.status ? eq(tickets.status, f.status) : undefined,
    f.priority ? eq(tickets.priority, f.priority) : undefined,
    f.inboxId ? eq(tickets.inboxId, f.inboxId) : undefined,
    f.customerId ? eq(tickets.customerId, f.customerId) : undefined,
    f.assigneeId === null ? isNull(tickets.assigneeId) : undefined,
    f.assigneeId ? eq(tickets.assigneeId, f.assigneeId) : undefined,
    f.q ? searchCondition(f.accountId, f.q) : undefined,
    f.tag ? tagCondition(f.accountId, f.tag, rareTag) : undefined,
    f.updatedAfter !== undefined ? gt(tickets.updatedAt, f.updatedAfter) : undefined,
    f.slaBreached !== undefined ? eq(tickets.slaBreached, f.slaBreached ? 1 : 0) : undefined,
    f.slaDueBefore !== undefined ? lt(tickets.slaDueAt, f.slaDueBefore) : undefined,
  );
}

/**
 * A rare tag lists its tickets by id: with the unary `+` on the account and order columns (see
 * ticketQueries) SQLite starts from those ids instead of walking every ticket of the workspace.
 * A common tag probes ticket_tags' primary key for each ticket walked.
 */
function tagCondition(accountId: string, tag: string, rareTag: boolean): SQL {
  return rareTag
    ? sql`${tickets.id} IN (SELECT tt.ticket_id FROM ticket_tags tt WHERE tt.tag_id IN (${tagIdsOf(accountId, tag)}))`
    : sql`EXISTS (SELECT 1 FROM ticket_tags tt WHERE tt.ticket_id = ${tickets.id} AND tt.tag_id IN (${tagIdsOf(accountId, tag)}))`;
}

/** The ids of a tag name's tags (one per inbox that has it). */
const tagIdsOf = (accountId: string, tag: string) =>
  sql`SELECT tg.id FROM tags tg WHERE tg.account_id = ${accountId} AND tg.name_key = ${tagNameKey(tag)}`;

type Facet = (typeof ticketFacetCounts.$inferSelect)["facet"];

/**
 * The trigger-kept counter row that answers a filter's total, or undefined when the filter is not
 * one of the counted ones (status, priority, both, inbox_id, assignee_id, tag, each alone): the
 * others (customer_id, q, updated_after, other combinations) count their matches on an index.
 */
function facetOf(f: TicketFilter): { facet: Facet; value: string } | "tag" | undefined {
  const given = Object.entries(f)
    .filter(([key, value]) => key !== "accountId" && value !== undefined)
    .map(([key]) => key)
    .sort()
    .join(",");
  if (given === "status" && f.status) return { facet: "status", value: f.status };
  if (given === "priority" && f.priority) return { facet: "priority", value: f.priority };
  if (given === "priority,status" && f.status && f.priority)
    return { facet: "status_priority", value: `${f.status}:${f.priority}` };
  if (given === "inboxId" && f.inboxId) return { facet: "inbox", value: f.inboxId };
  if (given === "assigneeId" && f.assigneeId) return { facet: "assignee", value: f.assigneeId };
  if (given === "tag") return "tag";
  return undefined;
}

/** How many tickets carry a tag name: the sum of its tags' counter rows. */
export const tagTicketsQuery = (db: Db, accountId: string, tag: string) =>
  db
    .select({ total: counterSum(ticketFacetCounts.total) })
    .from(ticketFacetCounts)
    .where(
      and(
        eq(ticketFacetCounts.accountId, accountId),
        eq(ticketFacetCounts.facet, "tag"),
        sql`${ticketFacetCounts.value} IN (${tagIdsOf(accountId, tag)})`,
      ),
    );

function totalQuery(db: Db, filter: TicketFilter, where: SQL | undefined) {
  const { accountId } = filter;
  const unfiltered = Object.entries(filter).every(
    ([key, value]) => key === "accountId" || value === undefined,
  );
  // Unfiltered, the total is the trigger-kept count: listing stays as fast with 100,000 tickets as with 1,000.
  if (unfiltered)
    return db
      .select({ total: ticketCounts.total })
      .from(ticketCounts)
      .where(eq(ticketCounts.accountId, accountId));
  const facet = facetOf(filter);
  if (facet === "tag" && filter.tag) return tagTicketsQuery(db, accountId, filter.tag);
  if (facet && facet !== "tag")
    return db
      .select({ total: ticketFacetCounts.total })
      .from(ticketFacetCounts)
      .where(
        and(
          eq(ticketFacetCounts.accountId, accountId),
          eq(ticketFacetCounts.facet, facet.facet),
          eq(ticketFacetCounts.value, facet.value),
        ),
      );
  return db.select({ total: count() }).from(tickets).where(where);
}

/** The filtered total alone, as a page of the list would answer it (a view's count). */
export const ticketTotalQuery = (db: Db, filter: TicketFilter) =>
  filter.q
    ? searchQueries(db, filter, filter.q, whereOf(filter, false), 1, 0).total
    : totalQuery(db, filter, whereOf(filter, false));

/**
 * A page of tickets and the filtered total. Newest first; with `updated_after`, by (updated_at,
 * id) ascending so that a sync can walk the pages without missing or repeating a ticket.
 */
export function ticketQueries(
  db: Db,
  filter: TicketFilter,
  limit: number,
  offset: number,
  tagTickets = Number.POSITIVE_INFINITY,
) {
  const rareTag = filter.tag !== undefined && tagTickets <= RARE_TAG_TICKETS;
  const where = whereOf(filter, rareTag);
  const column = (c: typeof tickets.createdAt | typeof tickets.updatedAt) => (rareTag ? sql`+${c}` : c);
  const order =
    filter.updatedAfter !== undefined
      ? [asc(column(tickets.updatedAt)), asc(tickets.id)]
      : filter.slaDueBefore !== undefined
        ? [asc(tickets.slaDueAt), asc(tickets.id)]
        : [desc(column(tickets.createdAt)), desc(tickets.id)];
  if (filter.q) return searchQueries(db, filter, filter.q, where, limit, offset);
  return {
    page: db
      .select(ticketView)
      .from(tickets)
      .innerJoin(customers, eq(customers.id, tickets.customerId))
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    total: totalQuery(db, filter, where),
  };
}

/**
 * A search's page: the tickets with a matching row among the workspace's newest SEARCHED_ROWS
 * matching rows (search.repo.ts), by relevance (bm25 of their best row), then newest first;
 * `updated_after` keeps its sync order, the only order a sync can page through. The total counts
 * the same tickets. CROSS JOIN keeps the hits the outer loop (SQLite never reorders it), each
 * ticket read by its key: left free, the planner walked every ticket of the workspace by its
 * account index and probed the hits (60 ms at 100,000 tickets for a word in 20 of them).
 */
function searchQueries(
  db: Db,
  filter: TicketFilter,
  q: SearchQuery,
  where: SQL | undefined,
  limit: number,
  offset: number,
) {
  const hits = searchHits(db, filter.accountId, q);
  const order =
    filter.updatedAfter !== undefined
      ? [asc(tickets.updatedAt), asc(tickets.id)]
      : [asc(hits.score), desc(tickets.createdAt), desc(tickets.id)];
  return {
    page: db
      .select(ticketView)
      .from(hits)
      .crossJoin(tickets)
      .innerJoin(customers, eq(customers.id, tickets.customerId))
      .where(and(eq(tickets.id, hits.ticketId), where))
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    total: db
      .select({ total: count() })
      .from(hits)
      .crossJoin(tickets)
      .where(and(eq(tickets.id, hits.ticketId), where)),
  };
}

export function updateTicketStatement(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof tickets.$inferInsert>,
) {
  return db
    .update(tickets)
    .set(changes)
    .where(and(eq(tickets.accountId, accountId), eq(tickets.id, id)));
}

export function deleteTicketStatement(db: Db, accountId: string, id: string) {
  return db.delete(tickets).where(and(eq(tickets.accountId, accountId), eq(tickets.id, id)));
}
