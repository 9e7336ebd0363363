import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { customers, inboxes, messages, tickets } from "../../db/schema";

export interface PublicTicket {
  inboxName: string;
  subject: string;
  clientId: string;
  status: (typeof tickets.$inferSelect)["status"];
  /** The survivor's shared id when the ticket was merged: its page leads there. */
  mergedIntoShared: string | null;
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

/** The ticket a merged one's messages moved to, joined to read its shared id. */
const survivor = alias(tickets, "survivor");
const survivorJoin = and(eq(survivor.accountId, tickets.accountId), eq(survivor.id, tickets.mergedIntoId));

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
      mergedIntoShared: survivor.sharedUuid,
    })
    .from(tickets)
    .innerJoin(inboxes, eq(inboxes.id, tickets.inboxId))
    .leftJoin(survivor, survivorJoin)
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
      mergedIntoShared: survivor.sharedUuid,
    })
    .from(tickets)
    .innerJoin(
      customers,
      and(eq(customers.accountId, tickets.accountId), eq(customers.id, tickets.customerId)),
    )
    .leftJoin(survivor, survivorJoin)
    .where(
      and(eq(tickets.sharedUuid, sharedUuid), eq(tickets.accountId, accountId), ne(tickets.status, "spam")),
    )
    .limit(1);
}

/** Merges chain (a survivor merged again later); a few hops is all that happens. */
const MAX_MERGE_HOPS = 5;

/**
 * Where a reply from a ticket page goes: the ticket, or the ticket it was merged into (as mail to
 * its reply address does), with the shared id of the page to return to.
 */
export async function findReplyTarget(db: Db, accountId: string, sharedUuid: string) {
  let page = sharedUuid;
  let target = (await replyTargetQuery(db, accountId, page))[0] ?? null;
  for (let hops = 0; target?.mergedIntoShared && hops < MAX_MERGE_HOPS; hops++) {
    page = target.mergedIntoShared;
    target = (await replyTargetQuery(db, accountId, page))[0] ?? null;
  }
  return target ? { ...target, sharedUuid: page } : null;
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
