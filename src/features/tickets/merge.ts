import { and, eq, sql } from "drizzle-orm";
import type { Statement } from "../../db/client";
import { messages, tickets } from "../../db/schema";
import { AppError, badRequest } from "../../lib/errors";
import type { TicketContext } from "./ticket-context";
import { versionCheck } from "./ticket-version";
import { type TicketRow, updateTicketStatement } from "./tickets.repo";
import { closedAtFor, ticketOf } from "./tickets.service";
import { ticketMerged } from "./writable-ticket";

/**
 * A merge whose tickets moved between its read and its batch (another merge of one of them, a
 * message): nothing was merged. Asked without If-Match, this is the answer; with it, the 412.
 */
export function asMergeConflict(error: unknown): unknown {
  if (!(error instanceof AppError && error.code === "ticket_changed")) return error;
  return new AppError(
    409,
    "merge_conflict",
    "Merge conflict",
    "One of the two tickets changed while the merge ran (another merge, a message); nothing was merged. GET both and try again.",
  );
}

/** Moves every message and tag of `source` onto `target` and closes `source` as merged. */
export async function mergeStatements(
  ctx: TicketContext,
  source: TicketRow,
  targetId: string,
): Promise<Statement[]> {
  if (targetId === source.id)
    throw badRequest("invalid_merge", "Invalid merge", "A ticket cannot be merged into itself.");
  const { ticket: target } = await ticketOf(ctx, targetId);
  if (target.mergedIntoId) throw ticketMerged(target);
  // Tags belong to one inbox, and an inbox's messages to its address and webhooks: a merge across
  // inboxes would break both.
  if (target.inboxId !== source.inboxId)
    throw badRequest(
      "merge_other_inbox",
      "Ticket of another inbox",
      `${source.id} is in inbox ${source.inboxId} and ${target.id} in inbox ${target.inboxId}; tickets merge only within one inbox.`,
    );
  // The merged ticket's public link and reply address lead to the survivor: another customer's
  // survivor would show one person's conversation to another.
  if (target.customerId !== source.customerId)
    throw badRequest(
      "merge_other_customer",
      "Ticket of another customer",
      `${source.id} is ${source.customerId}'s and ${target.id} is ${target.customerId}'s; tickets merge only within one customer's.`,
    );
  const { accountId } = ctx;
  return [
    // Both tickets as read, or nothing: of two merges at once (A into B and B into A, or the same one
    // twice) the second finds a version moved and aborts, so there is never a cycle or a double count.
    versionCheck(accountId, source.id, [source.version]),
    versionCheck(accountId, target.id, [target.version]),
    ctx.db
      .update(messages)
      .set({ ticketId: target.id })
      .where(and(eq(messages.accountId, accountId), eq(messages.ticketId, source.id))),
    sql`INSERT OR IGNORE INTO ticket_tags (ticket_id, tag_id, account_id, created_at)
        SELECT ${target.id}, tag_id, account_id, ${ctx.now} FROM ticket_tags
        WHERE account_id = ${accountId} AND ticket_id = ${source.id}`,
    ctx.db
      .update(tickets)
      .set({
        messageCount: sql`${tickets.messageCount} + ${source.messageCount}`,
        lastMessageAt: sql`max(coalesce(${tickets.lastMessageAt}, 0), ${source.lastMessageAt ?? 0})`,
        updatedAt: ctx.now,
      })
      .where(and(eq(tickets.accountId, accountId), eq(tickets.id, target.id))),
    updateTicketStatement(ctx.db, accountId, source.id, {
      status: "closed",
      closedAt: closedAtFor("closed", source.closedAt, ctx.now),
      mergedIntoId: target.id,
      snoozedUntil: null,
      messageCount: 0,
      updatedAt: ctx.now,
    }),
  ];
}
