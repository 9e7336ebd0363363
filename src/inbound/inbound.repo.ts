import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { customers, droppedMail, inboxes, messages, tickets } from "../db/schema";
import { type CustomerRow, upsertCustomerQuery } from "../features/customers/customers.repo";
import { findInboxQuery, type InboxRow } from "../features/inboxes/inboxes.repo";
import {
  findTicketQuery,
  nextTicketNumberQuery,
  type TicketSequence,
  type TicketView,
  ticketView,
} from "../features/tickets/tickets.repo";

/** What receiving a mail reads before it decides anything: `mailReads`' question. */
export interface MailQuestion {
  /** The inbox the directory named for the recipient: is it still that, in this shard? */
  inboxId: string;
  /** Sender, envelope sender and X-Loop addresses, lowercase: which are this workspace's inboxes? */
  addresses: string[];
  /** Has the workspace stored a message with this Message-ID? */
  messageId: string | null;
  /** The tickets holding messages with these Message-IDs (the mail's parents). */
  parentIds: string[];
  /** The ticket a verified reply address names. */
  signedTicketId: string | null;
  /** The customer with this address (lowercase), if there is one. */
  sender: string | null;
}

export interface MailAnswers {
  /** The receiving inbox's row (recipient.ts `confirmedInbox` judges it). */
  inbox: InboxRow | null;
  inboxAddresses: string[];
  duplicate: boolean;
  /** Parent Message-ID to the ticket holding it. */
  parents: Map<string, TicketView>;
  signed: TicketView | null;
  customer: CustomerRow | null;
}

/** The queries given, in one batch, each answered in its place; one left out (undefined) finds no rows. */
async function askedOnly<T extends readonly (BatchItem<"sqlite"> | undefined)[]>(
  db: Db,
  queries: T,
): Promise<{ [K in keyof T]: Awaited<NonNullable<T[K]>> }> {
  const asked = queries.filter((query) => query !== undefined);
  const answers: unknown[] = asked.length > 0 ? await db.batch(asked as [BatchItem<"sqlite">]) : [];
  let next = 0;
  return queries.map((query) => (query === undefined ? [] : answers[next++])) as never;
}

/**
 * Everything `MailQuestion` asks, in one round trip. Inbox addresses count only when they are
 * this workspace's own: another workspace's inbox writing to it is a customer like any other.
 * A question with nothing to ask (no parents, no signed ticket, no Message-ID, no sender) is left
 * out of the batch: locally every statement costs its own answer, even one that finds nothing.
 */
export async function mailReads(db: Db, accountId: string, q: MailQuestion): Promise<MailAnswers> {
  const addresses = [...new Set(q.addresses)];
  const [receiving, inboxRows, messageRows, parentRows, signedRows, customerRows] = await askedOnly(db, [
    findInboxQuery(db, accountId, q.inboxId),
    addresses.length > 0
      ? db
          .select({ address: inboxes.emailAddress })
          .from(inboxes)
          .where(and(eq(inboxes.accountId, accountId), inArray(inboxes.emailAddress, addresses)))
      : undefined,
    q.messageId !== null
      ? db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.accountId, accountId), eq(messages.emailMessageId, q.messageId)))
          .limit(1)
      : undefined,
    // Messages go with their ticket (ON DELETE CASCADE), so the join loses no parent.
    q.parentIds.length > 0
      ? db
          .select({ messageId: messages.emailMessageId, ...ticketView })
          .from(messages)
          .innerJoin(tickets, eq(tickets.id, messages.ticketId))
          .innerJoin(customers, eq(customers.id, tickets.customerId))
          .where(and(eq(messages.accountId, accountId), inArray(messages.emailMessageId, q.parentIds)))
      : undefined,
    q.signedTicketId !== null ? findTicketQuery(db, accountId, q.signedTicketId) : undefined,
    q.sender !== null
      ? db
          .select()
          .from(customers)
          .where(and(eq(customers.accountId, accountId), eq(customers.email, q.sender)))
          .limit(1)
      : undefined,
  ]);
  const parents = new Map<string, TicketView>();
  for (const { messageId, ...view } of parentRows) if (messageId) parents.set(messageId, view);
  return {
    inbox: receiving[0] ?? null,
    inboxAddresses: inboxRows.map((r) => r.address),
    duplicate: messageRows.length > 0,
    parents,
    signed: signedRows[0] ?? null,
    customer: customerRows[0] ?? null,
  };
}

/**
 * The writes a stored mail needs before its batch, in one round trip: the sender's customer row
 * when it has none (`newCustomer`, answered as the unique index let it in: concurrent mail from a
 * new sender finds one row) and a ticket number when the mail opens a ticket.
 */
export async function customerAndNumber(
  db: Db,
  accountId: string,
  newCustomer: typeof customers.$inferInsert | null,
  opensTicket: boolean,
): Promise<{ customer: CustomerRow | null; sequence: TicketSequence | null }> {
  if (newCustomer && opensTicket) {
    const [customerRows, numberRows] = await db.batch([
      upsertCustomerQuery(db, newCustomer),
      nextTicketNumberQuery(db, accountId),
    ]);
    return { customer: customerRows[0] ?? null, sequence: numberRows[0] ?? null };
  }
  if (newCustomer)
    return { customer: (await upsertCustomerQuery(db, newCustomer))[0] ?? null, sequence: null };
  if (opensTicket)
    return { customer: null, sequence: (await nextTicketNumberQuery(db, accountId))[0] ?? null };
  return { customer: null, sequence: null };
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
