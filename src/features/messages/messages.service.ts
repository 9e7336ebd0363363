import { sql } from "drizzle-orm";
import type { Statement } from "../../db/client";
import { messages } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { htmlTextOf } from "../portal/html-to-text";
import { actionsChange, useSavedReply } from "../saved-replies/use";
import { customerOf, inboxOf, type TicketContext } from "../tickets/ticket-context";
import type { VersionGuard } from "../tickets/ticket-version";
import type { TicketRow } from "../tickets/tickets.repo";
import { ticketOf } from "../tickets/tickets.service";
import { writableTicketOf } from "../tickets/writable-ticket";
import { claimDraft, editDraft, publishDraftStatement, releaseDraft, removeDraft } from "./drafts";
import { decodeFiles } from "./message-files";
import { toMessage } from "./messages.dto";
import { attachmentsOf, findMessage, type MessageRow } from "./messages.repo";
import type { CreateMessageInput } from "./messages.schemas";
import { type PublishedMessage, publishMessage, saveDraft } from "./publish";
import { replySubject } from "./reply-email";

type TicketStatus = TicketRow["status"];

const directionOf = (type: MessageRow["type"]) =>
  type === "customer"
    ? ("inbound" as const)
    : type === "reply"
      ? ("outbound" as const)
      : ("internal" as const);

/** The status a message has once published: received from a customer, queued as an email, or kept. */
const publishedStatus = (type: MessageRow["type"]) =>
  type === "customer" ? ("received" as const) : type === "reply" ? ("queued" as const) : ("sent" as const);

/** What the dashboard adds to a message it writes; the API gives none of it. */
export interface MessageOptions {
  /** The signed-in person who wrote it (author `user`); without it, the API key did (author `api`). */
  author?: { userId: string };
  /** `false`: publish without `message.created` (the spec excludes the dashboard's internal notes). */
  announce?: boolean;
  /** The request's `Idempotency-Key`: a retry answers the first message instead of posting another. */
  idempotencyKey?: string | undefined;
  /** If-Match: the message is stored and sent only while the ticket is at the version it names. */
  guard?: VersionGuard;
}

/**
 * POST /v1/tickets/{id}/messages. A draft is only stored; anything else is published: a reply's
 * email, the message, its attachments, the ticket's change, `message.created`, a saved reply's
 * actions (with their `ticket.updated`) and the idempotent answer in one batch.
 */
export async function addMessage(
  ctx: TicketContext,
  ticketId: string,
  input: CreateMessageInput,
  options: MessageOptions = {},
) {
  const request = { key: options.idempotencyKey, scope: `tickets/${ticketId}/messages`, body: input };
  const created = await idempotentCreate(ctx, request, async (store) => {
    const alsoStore = (message: PublishedMessage) => store.answer(201, message);
    const message = await writeMessage(ctx, ticketId, input, options, alsoStore);
    return { status: 201 as const, body: message };
  });
  return created.body;
}

async function writeMessage(
  ctx: TicketContext,
  ticketId: string,
  input: CreateMessageInput,
  options: MessageOptions,
  alsoStore: (message: PublishedMessage) => Statement[],
) {
  const { ticket } = await writableTicketOf(ctx, ticketId);
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  const used = input.saved_reply_id
    ? await useSavedReply(ctx, input.saved_reply_id, {
        ticket,
        inbox,
        customer,
        userId: options.author?.userId,
        render: !(input.body_text || input.body_html),
      })
    : null;
  const bodyText = used?.bodyText ?? input.body_text ?? null;
  const bodyHtml = used?.bodyHtml ?? input.body_html ?? null;
  const id = newId("msg");
  const files = decodeFiles(ctx, id, input.attachments ?? []);
  const draft = Boolean(input.draft);
  const row: MessageRow = {
    id,
    accountId: ctx.accountId,
    ticketId,
    type: input.type,
    direction: directionOf(input.type),
    authorType: input.type === "customer" ? "customer" : options.author ? "user" : "api",
    authorId: input.type === "customer" ? customer.id : (options.author?.userId ?? null),
    from: input.type === "customer" ? customer.email : input.type === "reply" ? inbox.emailAddress : null,
    to: JSON.stringify(input.type === "reply" ? [customer.email] : []),
    cc: JSON.stringify(input.cc ?? []),
    subject: input.type === "reply" ? replySubject(ticket.subject) : ticket.subject,
    bodyText,
    bodyHtml,
    htmlText: htmlTextOf(bodyText, bodyHtml),
    isDraft: draft,
    status: draft ? "draft" : publishedStatus(input.type),
    emailId: null,
    emailMessageId: null,
    rawKey: null,
    rawSize: 0,
    strippedText: null,
    autoSubmitted: false,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    sentAt: draft ? null : ctx.now,
  };
  if (draft) return saveDraft(ctx, row, files, alsoStore, options.guard);
  return publishMessage(ctx, {
    ticket,
    inbox,
    customer,
    message: row,
    newFiles: files,
    files: files.map((f) => f.row),
    afterReply: (input.status_after_send ?? used?.actions.status ?? inbox.statusAfterReply) as TicketStatus,
    write: (published) => [ctx.db.insert(messages).values(published)],
    announce: options.announce ?? true,
    alsoStore,
    ...(options.guard ? { guard: options.guard } : {}),
    // A reply's own status is its status after send (above); the other actions join its batch.
    ...(used
      ? { alsoChange: (after: TicketRow) => actionsChange(ctx, after, used.actions, input.type === "reply") }
      : {}),
  });
}

export async function showMessage(ctx: TicketContext, id: string) {
  const view = await findMessage(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`Message ${id}`);
  return toMessage(view, await attachmentsOf(ctx.db, ctx.accountId, [id]));
}

/**
 * A draft's `html_text` after an edit: made from a new HTML body, kept only while the draft has no
 * text body (`CASE` reads the stored one when the edit leaves it). A new text body alone clears
 * it; were that text empty, the page converts the stored HTML when shown.
 */
function draftHtmlText(input: { body_text?: string | undefined; body_html?: string | undefined }) {
  if (input.body_html === undefined) return input.body_text === undefined ? {} : { htmlText: null };
  if (input.body_text !== undefined) return { htmlText: htmlTextOf(input.body_text, input.body_html) };
  const text = htmlTextOf(null, input.body_html);
  return { htmlText: sql`CASE WHEN coalesce(${messages.bodyText}, '') = '' THEN ${text} ELSE NULL END` };
}

export async function updateDraft(
  ctx: TicketContext,
  id: string,
  input: { body_text?: string | undefined; body_html?: string | undefined; cc?: string[] | undefined },
) {
  await editDraft(ctx, id, {
    ...(input.body_text !== undefined ? { bodyText: input.body_text } : {}),
    ...(input.body_html !== undefined ? { bodyHtml: input.body_html } : {}),
    ...draftHtmlText(input),
    ...(input.cc !== undefined ? { cc: JSON.stringify(input.cc) } : {}),
  });
  return showMessage(ctx, id);
}

/** DELETE of a draft: the rows go in one statement (the storage trigger gives their bytes back), then the bytes. */
export async function deleteDraft(ctx: TicketContext, id: string) {
  const files = await attachmentsOf(ctx.db, ctx.accountId, [id]);
  await removeDraft(ctx, id);
  if (files.length > 0) await ctx.env.FILES.delete(files.map((f) => f.key));
  return { id, deleted: true as const };
}

/**
 * POST /v1/messages/{id}/send: publishes a draft as posting it would have, event included. The
 * draft is claimed first with a conditional update, so two sends at once publish it once: the
 * second answers 409. A claim whose request died is taken over after a minute.
 */
export async function sendDraft(ctx: TicketContext, id: string, statusAfterSend: TicketStatus | undefined) {
  const draft = await claimDraft(ctx, id);
  try {
    const { ticket } = await ticketOf(ctx, draft.ticketId);
    const [inbox, customer, files] = await Promise.all([
      inboxOf(ctx, ticket.inboxId),
      customerOf(ctx, ticket.customerId),
      attachmentsOf(ctx.db, ctx.accountId, [id]),
    ]);
    await publishMessage(ctx, {
      ticket,
      inbox,
      customer,
      message: {
        ...draft,
        isDraft: false,
        status: publishedStatus(draft.type),
        sentAt: ctx.now,
        updatedAt: ctx.now,
      },
      newFiles: [],
      files,
      afterReply: (statusAfterSend ?? inbox.statusAfterReply) as TicketStatus,
      write: (published) => [publishDraftStatement(ctx, published)],
    });
  } catch (error) {
    await releaseDraft(ctx, id);
    throw error;
  }
  return showMessage(ctx, id);
}
