import { and, eq, lt, or } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { messages } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import type { TicketContext } from "../tickets/ticket-context";
import { findMessage, type MessageRow } from "./messages.repo";

/** A send that claimed a draft and never finished (its Worker died) is taken over after this. */
const CLAIM_TIMEOUT_MS = 60_000;

/** A draft nobody is sending: its own status, or a claim that has gone stale. */
const claimable = (now: number) =>
  and(
    eq(messages.isDraft, true),
    or(
      eq(messages.status, "draft"),
      and(eq(messages.status, "queued"), lt(messages.updatedAt, now - CLAIM_TIMEOUT_MS)),
    ),
  );

/** This workspace's message `id`, in the given draft state (`queued` while a send holds it). */
const theDraft = (ctx: TicketContext, id: string, status: "draft" | "queued") =>
  and(
    eq(messages.accountId, ctx.accountId),
    eq(messages.id, id),
    eq(messages.isDraft, true),
    eq(messages.status, status),
  );

/** 404 for another workspace's or a missing message; 409 for one that is published or being sent. */
async function refuse(ctx: TicketContext, id: string): Promise<never> {
  const view = await findMessage(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`Message ${id}`);
  if (!view.message.isDraft)
    throw conflict("message_not_draft", "Not a draft", `Message ${id} is published; only drafts change.`);
  throw conflict("message_being_sent", "Draft being sent", `Message ${id} is being sent by another request.`);
}

/**
 * Takes a draft for sending: one conditional update, so of two sends at once only one gets the
 * row back. The claim shows as status `queued` while the message is still a draft.
 */
export async function claimDraft(ctx: TicketContext, id: string): Promise<MessageRow> {
  const rows = await ctx.db
    .update(messages)
    .set({ status: "queued", updatedAt: ctx.now })
    .where(and(eq(messages.accountId, ctx.accountId), eq(messages.id, id), claimable(ctx.now)))
    .returning();
  return rows[0] ?? refuse(ctx, id);
}

/** Hands a claimed draft back after its send was refused (a 4xx) or failed. */
export async function releaseDraft(ctx: TicketContext, id: string) {
  await ctx.db
    .update(messages)
    .set({ status: "draft" })
    .where(theDraft(ctx, id, "queued"));
}

/** Publishes the claimed draft: only while it is still this claim's draft. */
export function publishDraftStatement(ctx: TicketContext, published: MessageRow) {
  return ctx.db
    .update(messages)
    .set({
      isDraft: false,
      status: published.status,
      emailId: published.emailId,
      emailMessageId: published.emailMessageId,
      sentAt: published.sentAt,
      updatedAt: published.updatedAt,
    })
    .where(theDraft(ctx, published.id, "queued"));
}

/** PATCH of a draft nobody is sending; 409 otherwise. */
export async function editDraft(
  ctx: TicketContext,
  id: string,
  changes: SQLiteUpdateSetSource<typeof messages>,
) {
  const rows = await ctx.db
    .update(messages)
    .set({ ...changes, updatedAt: ctx.now })
    .where(theDraft(ctx, id, "draft"))
    .returning({ id: messages.id });
  if (rows.length === 0) await refuse(ctx, id);
}

/** DELETE of a draft nobody is sending; its attachment rows go with it (their bytes are the caller's). */
export async function removeDraft(ctx: TicketContext, id: string) {
  const rows = await ctx.db
    .delete(messages)
    .where(theDraft(ctx, id, "draft"))
    .returning({ id: messages.id });
  if (rows.length === 0) await refuse(ctx, id);
}
