import { runBatch } from "../../db/client";
import { messages, tickets } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { findOrCreateCustomer } from "../customers/customers.service";
import { inboxOf, type TicketContext } from "../tickets/ticket-context";
import { clientIdOf } from "../tickets/tickets.dto";
import { nextTicketNumber } from "../tickets/tickets.repo";
import { closedAtFor, showTicket } from "../tickets/tickets.service";
import type { ComposeInput } from "./messages.schemas";
import { emailReply } from "./reply-email";

/**
 * POST /v1/tickets/compose: starts a conversation by email. The email goes through every check of
 * POST /v1/emails first (413 over 25 MB, 403 for an unverified inbox domain, 422, 429); then the
 * customer, ticket and outbound message are stored. Fires neither `ticket.created` nor
 * `message.created` (the spec).
 */
export async function compose(ctx: TicketContext, input: ComposeInput) {
  const inbox = await inboxOf(ctx, input.inbox_id);
  const customer = await findOrCreateCustomer(
    ctx.db,
    ctx.accountId,
    { email: input.to, ...(input.name ? { name: input.name } : {}) },
    ctx.now,
  );
  if (customer.blocked)
    throw new AppError(403, "customer_blocked", "Customer blocked", `${customer.email} is blocked.`);
  const sequence = await nextTicketNumber(ctx.db, ctx.accountId);
  if (!sequence) throw notFound(`Account ${ctx.accountId}`);
  const status = inbox.statusAfterReply as (typeof tickets.$inferSelect)["status"];
  const ticket = {
    id: newId("tkv"),
    accountId: ctx.accountId,
    inboxId: inbox.id,
    customerId: customer.id,
    number: sequence.number,
    clientId: clientIdOf(sequence.prefix, sequence.number),
    subject: input.subject,
    status,
    priority: "normal" as const,
    sharedUuid: newId("shr"),
    metadata: "{}",
    assigneeId: null,
    messageCount: 1,
    lastMessageAt: ctx.now,
    snoozedUntil: null,
    closedAt: closedAtFor(status, null, ctx.now),
    mergedIntoId: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const email = await emailReply(ctx, ticket, inbox, customer, {
    bodyText: input.body_text ?? null,
    bodyHtml: input.body_html ?? null,
    cc: input.cc ?? [],
    attachments: input.attachments ?? [],
    subject: input.subject,
  });
  await runBatch(ctx.db, [
    ctx.db.insert(tickets).values(ticket),
    ctx.db.insert(messages).values({
      id: newId("msg"),
      accountId: ctx.accountId,
      ticketId: ticket.id,
      type: "reply",
      direction: "outbound",
      authorType: "api",
      from: inbox.emailAddress,
      to: JSON.stringify([customer.email]),
      cc: JSON.stringify(input.cc ?? []),
      subject: input.subject,
      bodyText: input.body_text ?? null,
      bodyHtml: input.body_html ?? null,
      status: "queued",
      emailId: email.id,
      emailMessageId: email.messageId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      sentAt: ctx.now,
    }),
  ]);
  return showTicket(ctx, ticket.id);
}
