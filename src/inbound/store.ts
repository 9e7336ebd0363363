import { messages, tickets } from "../db/schema";
import { assignByRule, ruleMayAssign } from "../features/assignment/assignment.repo";
import type { CustomerRow } from "../features/customers/customers.repo";
import type { InboxRow } from "../features/inboxes/inboxes.repo";
import { messageFile } from "../features/messages/message-files";
import type { MessageRow } from "../features/messages/messages.repo";
import { publishMessage } from "../features/messages/publish";
import { slaOfNewTicket } from "../features/sla/ticket-sla";
import { customerOf, inboxOf, type TicketContext } from "../features/tickets/ticket-context";
import type { TicketRow, TicketSequence } from "../features/tickets/tickets.repo";
import { numberedTicketRow, ticketCreatedEvent } from "../features/tickets/tickets.service";
import { notFound } from "../lib/errors";
import { bodiesOf } from "./bodies";
import type { InboundMail } from "./parse";
import type { RawMail } from "./raw-mail";

export interface Received {
  /** The id chosen when the mail arrived (its raw key names it). */
  messageId: string;
  mail: InboundMail;
  raw: RawMail;
  /** The sender, found or created by From. */
  customer: CustomerRow;
  automatic: boolean;
}

function messageRow(ctx: TicketContext, ticketId: string, r: Received): MessageRow {
  return {
    id: r.messageId,
    accountId: ctx.accountId,
    ticketId,
    type: "customer",
    direction: "inbound",
    authorType: "customer",
    authorId: r.customer.id,
    from: r.customer.email,
    to: JSON.stringify(r.mail.to),
    cc: JSON.stringify(r.mail.cc),
    subject: r.mail.subject,
    ...bodiesOf(r.mail),
    isDraft: false,
    status: "received",
    emailId: null,
    emailMessageId: r.mail.messageId,
    rawKey: r.raw.key,
    rawSize: r.raw.bytes.length,
    autoSubmitted: r.automatic,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    sentAt: null,
  };
}

/** Where a received mail goes: on a ticket it continues, or on a new one with the number taken for it. */
export type Place = { ticket: TicketRow } | { sequence: TicketSequence | null };

/**
 * Stores a received mail as a `customer` message through the API's own publication: on
 * `place.ticket`, or on a new ticket of `inbox` (its insert and `ticket.created` in the same batch,
 * announced first). Its files and raw bytes count toward storage even past the quota: received
 * mail is never lost for it. Events go to the webhooks of the ticket's inbox. The batch waits for
 * the raw bytes to be in R2: no row ever names bytes that are not stored.
 */
export async function storeReceived(ctx: TicketContext, inbox: InboxRow, place: Place, r: Received) {
  let opening: Parameters<typeof publishMessage>[1]["opening"];
  let target: TicketRow;
  if ("ticket" in place) target = place.ticket;
  else {
    if (!place.sequence) throw notFound(`Account ${ctx.accountId}`);
    target = numberedTicketRow(
      ctx,
      inbox,
      r.customer,
      { subject: r.mail.subject || "(no subject)", messageCount: 0 },
      place.sequence,
    );
    Object.assign(target, slaOfNewTicket(ctx, target, inbox));
    const event = ticketCreatedEvent(ctx, inbox, r.customer, target);
    const assign = ruleMayAssign(inbox) ? assignByRule(ctx.accountId, target) : [];
    opening = { statements: [ctx.db.insert(tickets).values(target), ...assign, ...event.statements], event };
  }
  const [ticketInbox, ticketCustomer] = await Promise.all([
    target.inboxId === inbox.id ? inbox : inboxOf(ctx, target.inboxId),
    target.customerId === r.customer.id ? r.customer : customerOf(ctx, target.customerId),
    r.raw.stored,
  ]);
  const files = r.mail.files.map((file) => messageFile(ctx, r.messageId, file));
  await publishMessage(ctx, {
    ticket: target,
    inbox: ticketInbox,
    customer: ticketCustomer,
    message: messageRow(ctx, target.id, r),
    newFiles: files,
    files: files.map((f) => f.row),
    afterReply: ticketInbox.statusAfterReply as TicketRow["status"],
    write: (published) => [ctx.db.insert(messages).values(published)],
    ...(opening ? { opening } : {}),
    storage: "count",
  });
  return { ticketId: target.id, opened: !("ticket" in place) };
}
