import { AppError, notFound } from "../../lib/errors";
import type { TicketContext } from "./ticket-context";
import { findTicket, type TicketRow } from "./tickets.repo";

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
 * not merged (409 `ticket_merged`). Reads and DELETE take a merged ticket as any other.
 */
export async function writableTicketOf(ctx: TicketContext, id: string) {
  const view = await findTicket(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`Ticket ${id}`);
  if (view.ticket.mergedIntoId) throw ticketMerged(view.ticket);
  return view;
}
