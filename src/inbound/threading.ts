import type { TicketContext } from "../features/tickets/ticket-context";
import { findTicket, type TicketView } from "../features/tickets/tickets.repo";
import { type MailAnswers, ticketIdByNumber } from "./inbound.repo";
import type { InboundMail } from "./parse";
import type { MailboxRoute } from "./recipient";

/** Merges chain (a ticket merged into one later merged again); a few hops is all that happens. */
const MAX_MERGE_HOPS = 5;

/** The ticket `view` is now: itself, or the ticket it was merged into. Null when it is gone. */
async function followMerges(ctx: TicketContext, view: TicketView | null): Promise<TicketView | null> {
  let live = view;
  for (let hops = 0; live?.ticket.mergedIntoId && hops < MAX_MERGE_HOPS; hops++) {
    live = await findTicket(ctx.db, ctx.accountId, live.ticket.mergedIntoId);
  }
  return live;
}

/** The ticket `id` names now: itself, or the ticket it was merged into. Null when it is gone. */
const liveTicket = async (ctx: TicketContext, id: string) =>
  followMerges(ctx, await findTicket(ctx.db, ctx.accountId, id));

/** The ticket of the first of the mail's parent Message-IDs (In-Reply-To, then References newest first) that the workspace stored. */
function byParents(ctx: TicketContext, parentIds: string[], parents: MailAnswers["parents"]) {
  const view = parentIds.map((id) => parents.get(id)).find(Boolean);
  return view ? followMerges(ctx, view) : null;
}

const SUBJECT_TAG = /\[([A-Za-z0-9]+-(\d{1,9}))\]/g;
/** Tags tried, each a round trip: a reply's subject carries one, a subject of tags is the sender's doing. */
const MAX_SUBJECT_TAGS = 3;

/** A `[TKT-00042]` tag in the subject, honoured only when the sender is that ticket's customer. */
async function bySubjectTag(ctx: TicketContext, subject: string, sender: string) {
  const tags = [...subject.matchAll(SUBJECT_TAG)].slice(0, MAX_SUBJECT_TAGS);
  for (const [, clientId, number] of tags) {
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
 * The first two were read with the mail's other reads (`found`); only merged tickets and subject
 * tags cost round trips of their own.
 */
export async function threadOf(
  ctx: TicketContext,
  route: MailboxRoute,
  mail: InboundMail,
  sender: string,
  found: Pick<MailAnswers, "signed" | "parents">,
): Promise<TicketView | null> {
  const signed = route.kind === "reply" ? await followMerges(ctx, found.signed) : null;
  return (
    signed ??
    (await byParents(ctx, mail.parentIds, found.parents)) ??
    (await bySubjectTag(ctx, mail.subject, sender))
  );
}
