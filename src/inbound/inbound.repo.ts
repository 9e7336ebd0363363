import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { droppedMail, inboxes, messages, tickets } from "../db/schema";

/**
 * The inboxes these addresses belong to. Not scoped to a workspace, as nothing else here is:
 * mail arrives before anyone is known, and inbox addresses are unique across the service.
 */
export function findInboxesByAddress(db: Db, addresses: string[]) {
  return db.select().from(inboxes).where(inArray(inboxes.emailAddress, addresses)).limit(addresses.length);
}

/**
 * In one round trip: which of `addresses` (lowercase) are inbox addresses of this workspace (its
 * own: another workspace's inbox writing to it is a customer like any other), and whether the
 * workspace already stored a message with `messageId`.
 */
export async function inboxAddressesAndMessageId(
  db: Db,
  accountId: string,
  addresses: string[],
  messageId: string | null,
): Promise<[string[], boolean]> {
  const [inboxRows, messageRows] = await db.batch([
    db
      .select({ address: inboxes.emailAddress })
      .from(inboxes)
      .where(
        and(
          eq(inboxes.accountId, accountId),
          inArray(inboxes.emailAddress, addresses.length > 0 ? [...new Set(addresses)] : [""]),
        ),
      ),
    db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.emailMessageId, messageId ?? "")))
      .limit(1),
  ]);
  return [inboxRows.map((r) => r.address), messageId !== null && messageRows.length > 0];
}

/** The tickets holding messages with these Message-IDs (stored replies and earlier inbound mail). */
export function ticketsByMessageIds(db: Db, accountId: string, messageIds: string[]) {
  return db
    .select({ messageId: messages.emailMessageId, ticketId: messages.ticketId })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), inArray(messages.emailMessageId, messageIds)));
}

/** The ticket with this number (what a `[TKT-00042]` subject tag names), by the unique index. */
export async function ticketIdByNumber(db: Db, accountId: string, number: number) {
  const rows = await db
    .select({ id: tickets.id, clientId: tickets.clientId })
    .from(tickets)
    .where(and(eq(tickets.accountId, accountId), eq(tickets.number, number)))
    .limit(1);
  return rows[0] ?? null;
}

export function insertDropped(db: Db, row: typeof droppedMail.$inferInsert) {
  return db.insert(droppedMail).values(row);
}
