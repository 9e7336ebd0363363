import { messageAttachments, messages, tickets } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { type AnswerStore, idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { findOrCreateCustomer } from "../customers/customers.service";
import { commitEmails } from "../emails/emails.accept";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { messageIdOf } from "../emails/message-id";
import { htmlTextOf } from "../portal/html-to-text";
import { slaOfNewTicket } from "../sla/ticket-sla";
import { inboxOf, type TicketContext } from "../tickets/ticket-context";
import { clientIdOf, toTicket } from "../tickets/tickets.dto";
import { nextTicketNumber, type TicketRow } from "../tickets/tickets.repo";
import { closedAtFor } from "../tickets/tickets.service";
import { decodeFiles, filesBytes, putFiles, removeFiles } from "./message-files";
import type { ComposeInput } from "./messages.schemas";
import { prepareReply } from "./reply-email";

/**
 * POST /v1/tickets/compose: starts a conversation by email. The email goes through every check of
 * POST /v1/emails first (413 over 25 MB, 403 for an unverified inbox domain, 422, 429); then the
 * customer, ticket and outbound message are stored, with the idempotent answer. Fires neither
 * `ticket.created` nor `message.created` (the spec).
 */
export async function compose(ctx: TicketContext, input: ComposeInput, idempotencyKey?: string) {
  const request = { key: idempotencyKey, scope: "tickets_compose", body: input };
  const created = await idempotentCreate(ctx, request, (store) => openByEmail(ctx, input, store));
  return created.body;
}

async function openByEmail(ctx: TicketContext, input: ComposeInput, store: AnswerStore) {
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
  const ticket: TicketRow = {
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
    version: 1,
    sla: null,
    slaDueAt: null,
    slaBreached: 0,
    slaNextAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  // An agent opens it with a reply: its first response is met at once.
  Object.assign(ticket, slaOfNewTicket(ctx, ticket, inbox, true));
  const messageId = newId("msg");
  const files = decodeFiles(ctx, messageId, input.attachments ?? []);
  const email = await prepareReply(
    ctx,
    ticket,
    inbox,
    customer,
    {
      bodyText: input.body_text ?? null,
      bodyHtml: input.body_html ?? null,
      cc: input.cc ?? [],
      attachments: files.map((f) => f.row),
      subject: input.subject,
    },
    filesBytes(files),
  );
  const message = {
    id: messageId,
    accountId: ctx.accountId,
    ticketId: ticket.id,
    type: "reply" as const,
    direction: "outbound" as const,
    authorType: "api" as const,
    from: inbox.emailAddress,
    to: JSON.stringify([customer.email]),
    cc: JSON.stringify(input.cc ?? []),
    subject: input.subject,
    bodyText: input.body_text ?? null,
    bodyHtml: input.body_html ?? null,
    htmlText: htmlTextOf(input.body_text, input.body_html),
    status: "queued" as const,
    emailId: email.row.id,
    emailMessageId: messageIdOf({ ...email.row, messageId: email.row.messageId ?? null }),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    sentAt: ctx.now,
  };
  const answer = toTicket(
    { ticket, customerEmail: customer.email, customerName: customer.name, tagNames: "[]" },
    ctx.env.PUBLIC_BASE_URL,
  );
  // The ticket, its message, the message's files, the email and the answer commit together or not at all.
  try {
    await putFiles(ctx, files);
    await commitEmails(ctx.db, email, [
      ctx.db.insert(tickets).values(ticket),
      ctx.db.insert(messages).values(message),
      ...files.map((f) => ctx.db.insert(messageAttachments).values(f.row)),
      ...store.answer(201, answer),
    ]);
  } catch (error) {
    await removeFiles(ctx, files);
    throw error;
  }
  await enqueueEmails(ctx.env.EMAIL_QUEUE, [email.row as EmailRow], ctx.now);
  return { status: 201 as const, body: answer };
}
