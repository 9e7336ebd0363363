import { and, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets } from "../../db/schema";
import { ftsAnyOf, ftsTerm, type SearchQuery } from "./search-query";

/*
 * The index (migration 0041_ticket_search) holds one row per ticket (its subject, client_id,
 * customer and tags) and one per message, each with its account: every lookup names the account
 * beside MATCH, and the ticket list joins on `tickets` with the account too, so a search never
 * reaches another workspace's rows.
 */

/** The tickets of the account with a row matching `fts`. */
const ticketsMatching = (accountId: string, fts: string) =>
  sql`SELECT ticket_id FROM ticket_search WHERE ticket_search MATCH ${fts} AND account_id = ${accountId}`;

/**
 * Each matching ticket with its best row's bm25 (lower is better): rows are matched by any wanted
 * term, so a ticket ranks by its most relevant message or by its own fields.
 */
export const searchHits = (db: Db, accountId: string, query: SearchQuery) =>
  db
    .select({
      ticketId: sql<string>`ticket_id`.as("hit_ticket_id"),
      score: sql<number>`min(rank)`.as("hit_score"),
    })
    .from(sql`ticket_search`)
    .where(sql`ticket_search MATCH ${ftsAnyOf(query)} AND account_id = ${accountId}`)
    .groupBy(sql`ticket_id`)
    .as("hits");

/**
 * A ticket has every wanted term (in any of its rows: the subject may hold one and a message
 * another) and none of the excluded ones.
 */
export function searchCondition(accountId: string, query: SearchQuery): SQL | undefined {
  const every = query.include.length > 1 ? query.include : [];
  return and(
    ...every.map((term) => sql`${tickets.id} IN (${ticketsMatching(accountId, ftsTerm(term))})`),
    ...query.exclude.map((term) => sql`${tickets.id} NOT IN (${ticketsMatching(accountId, ftsTerm(term))})`),
  );
}

/** Highlight marks in `snippet()`'s output, private-use characters that input text cannot mean. */
export const MARK_OPEN = "\uE000";
export const MARK_CLOSE = "\uE001";

/**
 * The best matching row's excerpt of each of a page's tickets: the ticket's own row and its
 * messages' rows, looked up by rowid beside MATCH.
 */
export function excerptsQuery(db: Db, accountId: string, query: SearchQuery, ticketIds: string[]) {
  const ids = JSON.stringify(ticketIds);
  return db.all<{ ticket_id: string; excerpt: string }>(sql`
    SELECT src.ticket_id, snippet(ticket_search, 2, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 40) AS excerpt
    FROM (
      SELECT -t.rowid AS rid, t.id AS ticket_id FROM tickets t
      WHERE t.account_id = ${accountId} AND t.id IN (SELECT value FROM json_each(${ids}))
      UNION ALL
      SELECT m.rowid AS rid, m.ticket_id FROM messages m
      WHERE m.account_id = ${accountId} AND m.ticket_id IN (SELECT value FROM json_each(${ids}))
    ) src
    JOIN ticket_search ON ticket_search.rowid = src.rid
    WHERE ticket_search MATCH ${ftsAnyOf(query)} AND ticket_search.account_id = ${accountId}
    ORDER BY rank`);
}
