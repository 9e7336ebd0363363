import { messages, tickets } from "../db/schema";
import type { CustomerRow } from "../features/customers/customers.repo";
import type { InboxRow } from "../features/inboxes/inboxes.repo";
import { messageFile } from "../features/messages/message-files";
import type { MessageRow } from "../features/messages/messages.repo";
import { publishMessage } from "../features/messages/publish";
import { customerOf, inboxOf, type TicketContext } from "../features/tickets/ticket-context";
import type { TicketRow } from "../features/tickets/tickets.repo";
import { newTicketRow, ticketCreatedEvent } from "../features/tickets/tickets.service";
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

/**
 * Stores a received mail as a `customer` message through the API's own publication: on `ticket`,
 * or on a new ticket of `inbox` (its insert and `ticket.created` in the same batch, announced
 * first). Its files and raw bytes count toward storage even past the quota: received mail is
 * never lost for it. Events go to the webhooks of the ticket's inbox.
 */
export async function storeReceived(
  ctx: TicketContext,
  inbox: InboxRow,
  ticket: TicketRow | null,
  r: Received,
) {
  let opening: Parameters<typeof publishMessage>[1]["opening"];
  let target = ticket;
  if (!target) {
    target = await newTicketRow(ctx, inbox, r.customer, {
      subject: r.mail.subject || "(no subject)",
      messageCount: 0,
    });
    const event = ticketCreatedEvent(ctx, inbox, r.customer, target);
    opening = { statements: [ctx.db.insert(tickets).values(target), ...event.statements], event };
  }
  const [ticketInbox, ticketCustomer] = await Promise.all([
    target.inboxId === inbox.id ? inbox : inboxOf(ctx, target.inboxId),
    target.customerId === r.customer.id ? r.customer : customerOf(ctx, target.customerId),
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
  return { ticketId: target.id, opened: !ticket };
}
