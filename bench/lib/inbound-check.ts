/**
 * What the API says an inbound benchmark stored: the tickets of its inbox and the Message-IDs of
 * a ticket's messages, read page by page, so "none lost" is counted rather than assumed.
 */
import { callOk } from "./api";
import { inParallel } from "./inbound-mail";
import type { BenchContext } from "./types";

const PAGE = 100;
const READERS = 5;

interface Page<T> {
  data: T[];
  pagination: { total: number };
}

export interface StoredTicket {
  id: string;
  subject: string;
  message_count: number;
}

/** Every item of an offset-paged list. */
async function everything<T>(ctx: BenchContext, path: string, query: Record<string, string> = {}) {
  const items: T[] = [];
  for (;;) {
    const params = new URLSearchParams({ ...query, limit: String(PAGE), offset: String(items.length) });
    const page = await callOk<Page<T>>(ctx, "GET", `${path}?${params}`);
    items.push(...page.data);
    if (page.data.length === 0 || items.length >= page.pagination.total) return items;
  }
}

export const ticketsOfInbox = (ctx: BenchContext, inboxId: string) =>
  everything<StoredTicket>(ctx, "/v1/tickets", { inbox_id: inboxId });

/** The Message-IDs stored on each of `ticketIds`, in that order. */
export const messageIdsOf = (ctx: BenchContext, ticketIds: string[]) =>
  inParallel(ticketIds, READERS, async (id) => {
    const list = await everything<{ email_message_id: string | null }>(ctx, `/v1/tickets/${id}/messages`);
    return list.map((m) => m.email_message_id);
  });
