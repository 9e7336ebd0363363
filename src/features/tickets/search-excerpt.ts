import type { Db } from "../../db/client";
import { excerptsQuery, MARK_CLOSE, MARK_OPEN } from "./search.repo";
import type { SearchQuery } from "./search-query";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * The text around a hit, HTML-escaped, each hit in `<mark>...</mark>`: safe to put in
 * a page as it is, and plain enough to read in a terminal.
 */
export function formatExcerpt(raw: string): string {
  return escapeHtml(raw.replace(/\s+/g, " ").trim())
    .replaceAll(MARK_OPEN, "<mark>")
    .replaceAll(MARK_CLOSE, "</mark>");
}

/** Each ticket's excerpt (of its newest matching message, else its own fields), by ticket id. */
export async function excerptsOf(
  db: Db,
  accountId: string,
  query: SearchQuery,
  ticketIds: string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (ticketIds.length === 0) return found;
  for (const row of await excerptsQuery(db, accountId, query, ticketIds))
    if (!found.has(row.ticket_id)) found.set(row.ticket_id, formatExcerpt(row.excerpt));
  return found;
}
