import { and, eq } from "drizzle-orm";
import { runBatch, type Statement } from "../../db/client";
import { messageAttachments, messages } from "../../db/schema";
import { base64Decode, base64Encode } from "../../lib/crypto";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { announceEvents } from "../../webhooks/announce";
import { recordEvent } from "../../webhooks/outbox";
import { ticketData } from "../../webhooks/payloads";
import { guessContentType } from "../emails/emails.input";
import type { InboxRow } from "../inboxes/inboxes.repo";
import { customerOf, inboxOf, type TicketContext } from "../tickets/ticket-context";
import type { TicketRow } from "../tickets/tickets.repo";
import { closedAtFor, ticketOf } from "../tickets/tickets.service";
import { toMessage } from "./messages.dto";
import {
  type AttachmentRow,
  attachmentsOf,
  bumpTicketStatement,
  findMessage,
  type MessageRow,
} from "./messages.repo";
import type { AttachmentInputs, CreateMessageInput } from "./messages.schemas";
import { emailReply, replySubject } from "./reply-email";

type TicketStatus = TicketRow["status"];

/** What a published message does to its ticket (product.md): customers reopen, replies set the after-reply status. */
export function ticketChangesFor(
  ticket: TicketRow,
  type: MessageRow["type"],
  afterReply: TicketStatus,
  now: number,
) {
  const counts = { messageCount: ticket.messageCount + 1, lastMessageAt: now, updatedAt: now };
  if (type === "customer" && ticket.status !== "spam") {
    const reopen = ["pending", "on_hold", "resolved", "closed"].includes(ticket.status);
    return { ...counts, snoozedUntil: null, ...(reopen ? { status: "open" as const, closedAt: null } : {}) };
  }
  if (type === "reply")
    return { ...counts, status: afterReply, closedAt: closedAtFor(afterReply, ticket.closedAt, now) };
  return counts;
}

/** Keeps attachment bytes in R2 and answers their rows. */
async function storeAttachments(ctx: TicketContext, messageId: string, inputs: AttachmentInputs) {
  return Promise.all(
    inputs.map(async (input) => {
      const id = newId("att");
      const bytes = base64Decode(input.content.replace(/\s+/g, ""));
      const key = `messages/${messageId}/${id}`;
      await ctx.env.FILES.put(key, bytes);
      return {
        id,
        accountId: ctx.accountId,
        messageId,
        filename: input.filename,
        contentType: input.content_type ?? guessContentType(input.filename),
        size: bytes.length,
        key,
        createdAt: ctx.now,
      };
    }),
  );
}

/**
 * The `message.created` event of a message being written, built from the rows in hand so that it
 * joins the message's own batch. A reply's email was created just before: it is `queued`.
 */
function messageCreated(
  ctx: TicketContext,
  inbox: InboxRow,
  ticketAfter: TicketRow,
  message: MessageRow,
  files: AttachmentRow[],
) {
  const view = { message, emailStatus: message.emailId ? ("queued" as const) : null };
  return recordEvent(
    {
      accountId: ctx.accountId,
      inbox,
      name: "message.created",
      data: {
        ticket: ticketData(ticketAfter, ctx.env.PUBLIC_BASE_URL),
        message: toMessage(view, files),
      },
    },
    ctx.now,
  );
}

/**
 * POST /v1/tickets/{id}/messages. A reply (not a draft) is emailed first, so a refused send leaves
 * nothing behind; then the message, its attachments and the ticket's change commit together, and
 * `message.created` follows for anything but a draft.
 */
export async function addMessage(ctx: TicketContext, ticketId: string, input: CreateMessageInput) {
  const { ticket } = await ticketOf(ctx, ticketId);
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  const id = newId("msg");
  const publish = !input.draft;
  const email =
    publish && input.type === "reply"
      ? await emailReply(ctx, ticket, inbox, customer, {
          bodyText: input.body_text ?? null,
          bodyHtml: input.body_html ?? null,
          cc: input.cc ?? [],
          attachments: input.attachments ?? [],
          subject: replySubject(ticket.subject),
        })
      : null;
  const files = await storeAttachments(ctx, id, input.attachments ?? []);
  const row = {
    id,
    accountId: ctx.accountId,
    ticketId,
    type: input.type,
    direction:
      input.type === "customer"
        ? ("inbound" as const)
        : input.type === "reply"
          ? ("outbound" as const)
          : ("internal" as const),
    authorType: input.type === "customer" ? ("customer" as const) : ("api" as const),
    authorId: input.type === "customer" ? customer.id : null,
    from: input.type === "customer" ? customer.email : input.type === "reply" ? inbox.emailAddress : null,
    to: JSON.stringify(input.type === "reply" ? [customer.email] : []),
    cc: JSON.stringify(input.cc ?? []),
    subject: input.type === "reply" ? replySubject(ticket.subject) : ticket.subject,
    bodyText: input.body_text ?? null,
    bodyHtml: input.body_html ?? null,
    isDraft: !publish,
    status: !publish
      ? ("draft" as const)
      : input.type === "customer"
        ? ("received" as const)
        : input.type === "reply"
          ? ("queued" as const)
          : ("sent" as const),
    emailId: email?.id ?? null,
    emailMessageId: email?.messageId ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    sentAt: publish ? ctx.now : null,
  };
  const afterReply = (input.status_after_send ?? inbox.statusAfterReply) as TicketStatus;
  const changes = publish ? ticketChangesFor(ticket, input.type, afterReply, ctx.now) : null;
  const statements: Statement[] = [
    ctx.db.insert(messages).values(row),
    ...files.map((f) => ctx.db.insert(messageAttachments).values(f)),
  ];
  if (changes) statements.push(bumpTicketStatement(ctx.db, ctx.accountId, ticketId, changes));
  const event = publish ? messageCreated(ctx, inbox, { ...ticket, ...changes }, row, files) : null;
  await runBatch(ctx.db, [...statements, ...(event?.statements ?? [])]);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  return showMessage(ctx, id);
}

export async function showMessage(ctx: TicketContext, id: string) {
  const view = await findMessage(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`Message ${id}`);
  return toMessage(view, await attachmentsOf(ctx.db, ctx.accountId, [id]));
}

async function draftOf(ctx: TicketContext, id: string) {
  const view = await findMessage(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`Message ${id}`);
  if (!view.message.isDraft)
    throw conflict("message_not_draft", "Not a draft", `Message ${id} is published; only drafts change.`);
  return view.message;
}

export async function updateDraft(
  ctx: TicketContext,
  id: string,
  input: { body_text?: string | undefined; body_html?: string | undefined; cc?: string[] | undefined },
) {
  await draftOf(ctx, id);
  await ctx.db
    .update(messages)
    .set({
      ...(input.body_text !== undefined ? { bodyText: input.body_text } : {}),
      ...(input.body_html !== undefined ? { bodyHtml: input.body_html } : {}),
      ...(input.cc !== undefined ? { cc: JSON.stringify(input.cc) } : {}),
      updatedAt: ctx.now,
    })
    .where(and(eq(messages.accountId, ctx.accountId), eq(messages.id, id), eq(messages.isDraft, true)));
  return showMessage(ctx, id);
}

export async function deleteDraft(ctx: TicketContext, id: string) {
  await draftOf(ctx, id);
  const files = await attachmentsOf(ctx.db, ctx.accountId, [id]);
  await ctx.db
    .delete(messages)
    .where(and(eq(messages.accountId, ctx.accountId), eq(messages.id, id), eq(messages.isDraft, true)));
  if (files.length > 0) await ctx.env.FILES.delete(files.map((f) => f.key));
  return { id, deleted: true as const };
}

/** POST /v1/messages/{id}/send: publishes a draft as posting it would have, event included. */
export async function sendDraft(ctx: TicketContext, id: string, statusAfterSend: TicketStatus | undefined) {
  const draft = await draftOf(ctx, id);
  const { ticket } = await ticketOf(ctx, draft.ticketId);
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  const files = await attachmentsOf(ctx.db, ctx.accountId, [id]);
  const email =
    draft.type === "reply"
      ? await emailReply(ctx, ticket, inbox, customer, {
          bodyText: draft.bodyText,
          bodyHtml: draft.bodyHtml,
          cc: JSON.parse(draft.cc) as string[],
          attachments: await Promise.all(
            files.map(async (f) => {
              const object = await ctx.env.FILES.get(f.key);
              if (!object) throw notFound(`Attachment ${f.id}`);
              const bytes = new Uint8Array(await object.arrayBuffer());
              return { filename: f.filename, content_type: f.contentType, content: base64Encode(bytes) };
            }),
          ),
          subject: replySubject(ticket.subject),
        })
      : null;
  const changes = ticketChangesFor(
    ticket,
    draft.type,
    (statusAfterSend ?? inbox.statusAfterReply) as TicketStatus,
    ctx.now,
  );
  const status =
    draft.type === "customer"
      ? ("received" as const)
      : draft.type === "reply"
        ? ("queued" as const)
        : ("sent" as const);
  const published = {
    isDraft: false,
    status,
    emailId: email?.id ?? null,
    emailMessageId: email?.messageId ?? null,
    sentAt: ctx.now,
    updatedAt: ctx.now,
  };
  const event = messageCreated(ctx, inbox, { ...ticket, ...changes }, { ...draft, ...published }, files);
  await runBatch(ctx.db, [
    ctx.db
      .update(messages)
      .set(published)
      .where(and(eq(messages.accountId, ctx.accountId), eq(messages.id, id), eq(messages.isDraft, true))),
    bumpTicketStatement(ctx.db, ctx.accountId, ticket.id, changes),
    ...event.statements,
  ]);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  return showMessage(ctx, id);
}
