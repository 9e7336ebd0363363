import { and, eq, sql } from "drizzle-orm";
import { customers, tickets } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import type { TicketContext } from "./ticket-context";
import { type TicketRow, ticketView } from "./tickets.repo";

/** A write to a merged ticket: refused, naming the survivor, so the client can write there. */
export const ticketMerged = (ticket: Pick<TicketRow, "id" | "mergedIntoId">) =>
  new AppError(
    409,
    "ticket_merged",
    "Ticket merged",
    `${ticket.id} was merged into ${ticket.mergedIntoId}; write to that ticket instead.`,
  );

/**
 * A ticket that takes writes (messages, edits, actions, tags): found in the workspace (404) and
 * not merged (409 `ticket_merged`). Reads and DELETE take a merged ticket as any other. The
 * inbox's copy of its SLA policy comes with it (a primary-key subquery in the same read), so a
 * write that moves the ticket's SLA needs no read of the policy of its own.
 */
export async function writableTicketOf(ctx: TicketContext, id: string) {
  const [view] = await ctx.db
    .select({
      ...ticketView,
      inbox: {
        slaPolicy: sql<
          string | null
        >`(SELECT i.sla_policy FROM inboxes i WHERE i.id = ${tickets.inboxId} AND i.account_id = ${tickets.accountId})`,
      },
    })
    .from(tickets)
    .innerJoin(customers, eq(customers.id, tickets.customerId))
    .where(and(eq(tickets.accountId, ctx.accountId), eq(tickets.id, id)))
    .limit(1);
  if (!view) throw notFound(`Ticket ${id}`);
  if (view.ticket.mergedIntoId) throw ticketMerged(view.ticket);
  return view;
}
