import { newId } from "../../lib/ids";
import { recordEvent } from "../../webhooks/outbox";
import { ticketData } from "../../webhooks/payloads";
import type { CustomerRow } from "../customers/customers.repo";
import type { InboxRow } from "../inboxes/inboxes.repo";
import { toMessage } from "../messages/messages.dto";
import type { MessageRow } from "../messages/messages.repo";
import { htmlTextOf } from "../portal/html-to-text";
import type { TicketContext } from "./ticket-context";
import type { TicketRow } from "./tickets.repo";

/** The customer message a new ticket starts with: inbound, received, written by its customer. */
export function firstMessageRow(
  ticket: TicketRow,
  customer: CustomerRow,
  body: { body_text?: string | undefined; body_html?: string | undefined },
): MessageRow {
  return {
    id: newId("msg"),
    accountId: ticket.accountId,
    ticketId: ticket.id,
    type: "customer",
    direction: "inbound",
    authorType: "customer",
    authorId: customer.id,
    from: customer.email,
    to: "[]",
    cc: "[]",
    subject: ticket.subject,
    bodyText: body.body_text ?? null,
    bodyHtml: body.body_html ?? null,
    htmlText: htmlTextOf(body.body_text, body.body_html),
    isDraft: false,
    status: "received",
    emailId: null,
    emailMessageId: null,
    createdAt: ticket.createdAt,
    updatedAt: ticket.createdAt,
    sentAt: null,
    rawKey: null,
    rawSize: 0,
    strippedText: null,
    autoSubmitted: false,
  };
}

/** `message.created` for that message, with the same payload a message posted later carries. */
export function firstMessageEvent(
  ctx: TicketContext,
  inbox: InboxRow,
  ticket: TicketRow,
  message: MessageRow,
) {
  return recordEvent(
    {
      accountId: ctx.accountId,
      inbox,
      name: "message.created",
      data: {
        ticket: ticketData(ticket, ctx.env.PUBLIC_BASE_URL),
        message: toMessage({ message, emailStatus: null }, []),
      },
    },
    ctx.now,
  );
}
