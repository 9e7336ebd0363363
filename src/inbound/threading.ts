import type { TicketContext } from "../features/tickets/ticket-context";
import { findTicket, type TicketView } from "../features/tickets/tickets.repo";
import { ticketIdByNumber, ticketsByMessageIds } from "./inbound.repo";
import type { InboundMail } from "./parse";
import type { MailboxRoute } from "./recipient";

/** Merges chain (a ticket merged into one later merged again); a few hops is all that happens. */
const MAX_MERGE_HOPS = 5;

/** The ticket `id` names now: itself, or the ticket it was merged into. Null when it is gone. */
async function liveTicket(ctx: TicketContext, id: string): Promise<TicketView | null> {
  let view = await findTicket(ctx.db, ctx.accountId, id);
  for (let hops = 0; view?.ticket.mergedIntoId && hops < MAX_MERGE_HOPS; hops++) {
    view = await findTicket(ctx.db, ctx.accountId, view.ticket.mergedIntoId);
  }
  return view;
}

/** The first of the mail's parent Message-IDs (In-Reply-To, then References newest first) that the workspace stored. */
async function byParents(ctx: TicketContext, parentIds: string[]) {
  if (parentIds.length === 0) return null;
  const rows = await ticketsByMessageIds(ctx.db, ctx.accountId, parentIds);
  const byId = new Map(rows.map((r) => [r.messageId, r.ticketId]));
  const ticketId = parentIds.map((id) => byId.get(id)).find(Boolean);
  return ticketId ? liveTicket(ctx, ticketId) : null;
}

const SUBJECT_TAG = /\[([A-Za-z0-9]+-(\d{1,9}))\]/g;

/** A `[TKT-00042]` tag in the subject, honoured only when the sender is that ticket's customer. */
async function bySubjectTag(ctx: TicketContext, subject: string, sender: string) {
  for (const [, clientId, number] of subject.matchAll(SUBJECT_TAG)) {
    const row = await ticketIdByNumber(ctx.db, ctx.accountId, Number(number));
    if (!row || row.clientId.toLowerCase() !== clientId?.toLowerCase()) continue;
    const view = await liveTicket(ctx, row.id);
    if (view && view.customerEmail === sender) return view;
  }
  return null;
}

/**
 * The ticket a received mail continues, in this order: the signed reply address, the Message-IDs
 * it answers, a subject tag from the ticket's own customer. Null: it starts a new ticket. A
 * reply address whose ticket was deleted falls through to the other ways, then to a new ticket.
 */
export async function threadOf(
  ctx: TicketContext,
  route: MailboxRoute,
  mail: InboundMail,
  sender: string,
): Promise<TicketView | null> {
  const signed = route.kind === "reply" ? await liveTicket(ctx, route.ticketId) : null;
  return signed ?? (await byParents(ctx, mail.parentIds)) ?? (await bySubjectTag(ctx, mail.subject, sender));
}
