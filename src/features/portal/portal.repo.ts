import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customers, inboxes, messages, tickets } from "../../db/schema";

export interface PublicTicket {
  inboxName: string;
  subject: string;
  clientId: string;
  status: (typeof tickets.$inferSelect)["status"];
  messages: PublicMessage[];
}

export interface PublicMessage {
  id: string;
  type: "customer" | "reply" | "note";
  bodyText: string | null;
  bodyHtml: string | null;
  /** `body_html` as text, stored with the message (null on rows older than it). */
  htmlText: string | null;
  createdAt: number;
}

/**
 * The two statements behind the page. Both repeat the visibility rules so that nothing the
 * customer must not see ever leaves the database: spam tickets, internal notes and drafts (by flag
 * or by status) are filtered in SQL.
 */
export function publicTicketQueries(db: Db, accountId: string, sharedUuid: string) {
  const visibleTicket = and(
    eq(tickets.sharedUuid, sharedUuid),
    eq(tickets.accountId, accountId),
    ne(tickets.status, "spam"),
  );
  const ticket = db
    .select({
      inboxName: inboxes.name,
      subject: tickets.subject,
      clientId: tickets.clientId,
      status: tickets.status,
    })
    .from(tickets)
    .innerJoin(inboxes, eq(inboxes.id, tickets.inboxId))
    .where(visibleTicket)
    .limit(1);
  const thread = db
    .select({
      id: messages.id,
      type: messages.type,
      bodyText: messages.bodyText,
      bodyHtml: messages.bodyHtml,
      htmlText: messages.htmlText,
      createdAt: messages.createdAt,
    })
    .from(tickets)
    .innerJoin(messages, eq(messages.ticketId, tickets.id))
    .where(
      and(
        visibleTicket,
        inArray(messages.type, ["customer", "reply"]),
        eq(messages.isDraft, false),
        ne(messages.status, "draft"),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return { ticket, thread };
}

/**
 * The workspace of the ticket behind a shared id, by the id alone: for a link naming none. Spam
 * tickets too: their pages answer 404 all the same.
 */
export async function accountOfSharedTicket(db: Db, sharedUuid: string): Promise<string | null> {
  const rows = await db
    .select({ accountId: tickets.accountId })
    .from(tickets)
    .where(eq(tickets.sharedUuid, sharedUuid))
    .limit(1);
  return rows[0]?.accountId ?? null;
}

/** The ticket behind a shared id in its workspace, with its public thread, in one D1 round trip. */
export async function findPublicTicket(
  db: Db,
  accountId: string,
  sharedUuid: string,
): Promise<PublicTicket | null> {
  const { ticket, thread } = publicTicketQueries(db, accountId, sharedUuid);
  const [ticketRows, messageRows] = await db.batch([ticket, thread]);
  const found = ticketRows[0];
  return found ? { ...found, messages: messageRows } : null;
}

/**
 * What a reply from the ticket page needs: the ticket, its workspace and its customer. Found by
 * the shared id alone (the capability), with the page's rule: a spam ticket is not found.
 */
export function replyTargetQuery(db: Db, accountId: string, sharedUuid: string) {
  return db
    .select({
      ticketId: tickets.id,
      accountId: tickets.accountId,
      customerEmail: customers.email,
      customerBlocked: customers.blocked,
    })
    .from(tickets)
    .innerJoin(
      customers,
      and(eq(customers.accountId, tickets.accountId), eq(customers.id, tickets.customerId)),
    )
    .where(
      and(eq(tickets.sharedUuid, sharedUuid), eq(tickets.accountId, accountId), ne(tickets.status, "spam")),
    )
    .limit(1);
}

export async function findReplyTarget(db: Db, accountId: string, sharedUuid: string) {
  return (await replyTargetQuery(db, accountId, sharedUuid))[0] ?? null;
}

/**
 * An inbox as its public contact form shows it, in the workspace the directory named for it (an
 * inbox id is the public address of its form, not a secret); nothing else is read.
 */
export function publicInboxQuery(db: Db, accountId: string, inboxId: string) {
  return db
    .select({ id: inboxes.id, accountId: inboxes.accountId, name: inboxes.name })
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId)))
    .limit(1);
}

export type PublicInbox = { id: string; accountId: string; name: string };

export async function findPublicInbox(
  db: Db,
  accountId: string,
  inboxId: string,
): Promise<PublicInbox | null> {
  return (await publicInboxQuery(db, accountId, inboxId))[0] ?? null;
}
