import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { droppedMail, inboxes, messages, tickets } from "../db/schema";

/**
 * The inbox an address belongs to. Not scoped to a workspace, as nothing else here is: mail
 * arrives before anyone is known, and inbox addresses are unique across the service.
 */
export async function findInboxByAddress(db: Db, address: string) {
  const rows = await db.select().from(inboxes).where(eq(inboxes.emailAddress, address)).limit(1);
  return rows[0] ?? null;
}

/** Which of `addresses` (lowercase) are inbox addresses of any workspace: the service's own. */
export async function inboxAddressesAmong(db: Db, addresses: string[]): Promise<string[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .select({ address: inboxes.emailAddress })
    .from(inboxes)
    .where(inArray(inboxes.emailAddress, addresses));
  return rows.map((r) => r.address);
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

/** Whether the workspace already stored a message with this Message-ID (the same mail again). */
export async function messageIdTaken(db: Db, accountId: string, messageId: string) {
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.emailMessageId, messageId)))
    .limit(1);
  return rows.length > 0;
}

export function insertDropped(db: Db, row: typeof droppedMail.$inferInsert) {
  return db.insert(droppedMail).values(row);
}
