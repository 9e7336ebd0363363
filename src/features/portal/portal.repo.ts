import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxes, messages, tickets } from "../../db/schema";

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
  createdAt: number;
}

/**
 * The two statements behind the page. Both repeat the visibility rules so that nothing the
 * customer must not see ever leaves the database: spam tickets, internal notes and drafts (by flag
 * or by status) are filtered in SQL.
 */
export function publicTicketQueries(db: Db, sharedUuid: string) {
  const visibleTicket = and(eq(tickets.sharedUuid, sharedUuid), ne(tickets.status, "spam"));
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

/** The ticket behind a shared id with its public thread, in one D1 round trip. */
export async function findPublicTicket(db: Db, sharedUuid: string): Promise<PublicTicket | null> {
  const { ticket, thread } = publicTicketQueries(db, sharedUuid);
  const [ticketRows, messageRows] = await db.batch([ticket, thread]);
  const found = ticketRows[0];
  return found ? { ...found, messages: messageRows } : null;
}
