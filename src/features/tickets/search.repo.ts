import { and, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets } from "../../db/schema";
import { ftsAnyOf, ftsTerm, type SearchQuery } from "./search-query";

/*
 * The index (migration 0044_ticket_search_by_account) holds one row per ticket (its subject,
 * client_id, customer and tags) and one per message. Every row's rowid starts with its
 * workspace's number in the shard (search_accounts): `(n << 37) | message rowid`, and
 * `(n << 37) | (1 << 36) | ticket rowid` for a ticket's own row. Every lookup below names its
 * workspace as that rowid range beside MATCH, so FTS5 reads no other workspace's rows: a search is
 * tenant-safe by construction, and a big neighbour in the shard costs it nothing.
 */

/** The first rowid of the workspace's range; NULL (nothing matches) before it has any row. */
const rangeStart = (accountId: string) =>
  sql`(SELECT n << 37 FROM search_accounts WHERE account_id = ${accountId})`;
const rangeEnd = (accountId: string) =>
  sql`(SELECT (n + 1) << 37 FROM search_accounts WHERE account_id = ${accountId})`;
const inWorkspace = (accountId: string) =>
  sql`ticket_search.rowid >= ${rangeStart(accountId)} AND ticket_search.rowid < ${rangeEnd(accountId)}`;

/**
 * How many matching rows a search ranks at most: the newest, walked by rowid from the end of the
 * workspace's range (its tickets' own rows, then its messages newest first). A rare word has far
 * fewer; a word in most messages of a big workspace would otherwise rank every one of them (1.4 s
 * at 500,000 messages). Zendesk's search stops at 1,000 results for the same reason.
 */
export const SEARCHED_ROWS = 2_000;

/**
 * Each candidate ticket with its best row's bm25 (lower is better): rows matching any wanted term,
 * so a ticket ranks by its most relevant message or by its own fields.
 */
export const searchHits = (db: Db, accountId: string, query: SearchQuery) =>
  db
    .select({
      ticketId: sql<string>`ticket_id`.as("hit_ticket_id"),
      score: sql<number>`min(row_rank)`.as("hit_score"),
    })
    .from(
      sql`(SELECT ticket_id, rank AS row_rank FROM ticket_search
        WHERE ticket_search MATCH ${ftsAnyOf(query)} AND ${inWorkspace(accountId)}
        ORDER BY ticket_search.rowid DESC LIMIT ${SEARCHED_ROWS})`,
    )
    .groupBy(sql`ticket_id`)
    .as("hits");

/** The index rowids of a ticket (of the outer query's `tickets` row): its own and its messages'. */
const rowsOfTicket = (accountId: string) => sql`
  SELECT ${rangeStart(accountId)} | m.rowid FROM messages m WHERE m.ticket_id = ${tickets.id}
  UNION ALL SELECT ${rangeStart(accountId)} | (1 << 36) | "tickets".rowid`;

/** The ticket has a row with the term: a lookup by rowid per row of the ticket, never a scan. */
const ticketHas = (accountId: string, term: string) => sql`EXISTS (
  SELECT 1 FROM ticket_search WHERE ticket_search MATCH ${ftsTerm(term)}
  AND ticket_search.rowid IN (${rowsOfTicket(accountId)}))`;

/**
 * A candidate ticket has every wanted term (in any of its rows: the subject may hold one and a
 * message another) and none of the excluded ones, checked on that ticket's rows alone.
 */
export function searchCondition(accountId: string, query: SearchQuery): SQL | undefined {
  const every = query.include.length > 1 ? query.include : [];
  return and(
    ...every.map((term) => ticketHas(accountId, term)),
    ...query.exclude.map((term) => sql`NOT ${ticketHas(accountId, term)}`),
  );
}

/** Highlight marks in `snippet()`'s output, private-use characters that input text cannot mean. */
export const MARK_OPEN = "\uE000";
export const MARK_CLOSE = "\uE001";

/**
 * An excerpt of each of a page's tickets: of its newest message with a hit, else of its own
 * fields. The row is chosen among the search's own candidates (the same newest SEARCHED_ROWS
 * matching rows its page was ranked from, so every ticket of the page has one), then looked up
 * once by rowid beside MATCH for `snippet()`: one lookup per ticket, where looking up every row of
 * the page's tickets cost 30 ms at 500,000 messages. CROSS JOIN keeps the chosen rows the outer
 * loop (workerd's SQLite else walked every row of the word in the workspace, 40 s for a common
 * one). Not ordered by `rank`: bm25 counts a word's rows in the whole index again at every lookup.
 */
export const excerptsQuery = (db: Db, accountId: string, query: SearchQuery, ticketIds: string[]) =>
  db.all<{ ticket_id: string; excerpt: string }>(excerptsSql(accountId, query, ticketIds));

export function excerptsSql(accountId: string, query: SearchQuery, ticketIds: string[]): SQL {
  const ids = JSON.stringify(ticketIds);
  return sql`
    SELECT best.ticket_id, snippet(ticket_search, 1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 40) AS excerpt
    FROM (
      SELECT ticket_id, coalesce(max(CASE WHEN row_id & (1 << 36) = 0 THEN row_id END), max(row_id)) AS rid
      FROM (SELECT ticket_search.rowid AS row_id, ticket_id FROM ticket_search
        WHERE ticket_search MATCH ${ftsAnyOf(query)} AND ${inWorkspace(accountId)}
        ORDER BY ticket_search.rowid DESC LIMIT ${SEARCHED_ROWS})
      WHERE ticket_id IN (SELECT value FROM json_each(${ids}))
      GROUP BY ticket_id
    ) best
    CROSS JOIN ticket_search
    WHERE ticket_search.rowid = best.rid
      AND ticket_search MATCH ${ftsAnyOf(query)} AND ${inWorkspace(accountId)}`;
}
