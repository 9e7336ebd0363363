import { and, eq, sql } from "drizzle-orm";
import { runBatch, type Statement } from "../../db/client";
import { messages, tags, tickets, ticketTags } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { tagNameKey } from "../tags/tags.service";
import { assertAssignable } from "../users/users.service";
import type { TicketContext } from "./ticket-context";
import {
  ensureTags,
  linkTagStatements,
  type TicketRow,
  unlinkTagStatement,
  updateTicketStatement,
} from "./tickets.repo";
import type { ManageInput } from "./tickets.schemas";
import { closedAtFor, showTicket, ticketOf } from "./tickets.service";

type Changes = Partial<typeof tickets.$inferInsert>;

const statusChange = (ticket: TicketRow, status: TicketRow["status"], now: number): Changes => ({
  status,
  closedAt: closedAtFor(status, ticket.closedAt, now),
});

/** The column changes of the simple actions. */
function changesFor(ticket: TicketRow, input: ManageInput, now: number): Changes | null {
  switch (input.action) {
    case "close":
      return statusChange(ticket, "closed", now);
    case "resolve":
      return statusChange(ticket, "resolved", now);
    case "reopen":
    case "not_spam":
      return { ...statusChange(ticket, "open", now), snoozedUntil: null };
    case "hold":
      return statusChange(ticket, "on_hold", now);
    case "spam":
      return statusChange(ticket, "spam", now);
    case "assign":
      return { assigneeId: input.user_id };
    case "unassign":
      return { assigneeId: null };
    case "snooze": {
      const until = Date.parse(input.until);
      if (until <= now)
        throw badRequest("validation_error", "Invalid request", "`until` must be in the future.");
      return { snoozedUntil: until };
    }
    case "unsnooze":
      return { snoozedUntil: null };
    case "set_priority":
      return { priority: input.priority };
    default:
      return null;
  }
}

/** Moves every message and tag of `source` onto `target` and closes `source` as merged. */
async function mergeStatements(
  ctx: TicketContext,
  source: TicketRow,
  targetId: string,
): Promise<Statement[]> {
  if (targetId === source.id)
    throw badRequest("invalid_merge", "Invalid merge", "A ticket cannot be merged into itself.");
  const { ticket: target } = await ticketOf(ctx, targetId);
  if (target.mergedIntoId)
    throw new AppError(
      409,
      "ticket_merged",
      "Ticket already merged",
      `${target.id} was merged into ${target.mergedIntoId}.`,
    );
  return [
    ctx.db.update(messages).set({ ticketId: target.id }).where(eq(messages.ticketId, source.id)),
    sql`INSERT OR IGNORE INTO ticket_tags (ticket_id, tag_id, account_id, created_at)
        SELECT ${target.id}, tag_id, account_id, ${ctx.now} FROM ticket_tags WHERE ticket_id = ${source.id}`,
    ctx.db
      .update(tickets)
      .set({
        messageCount: sql`${tickets.messageCount} + ${source.messageCount}`,
        lastMessageAt: sql`max(coalesce(${tickets.lastMessageAt}, 0), ${source.lastMessageAt ?? 0})`,
        updatedAt: ctx.now,
      })
      .where(eq(tickets.id, target.id)),
    updateTicketStatement(ctx.db, source.id, {
      ...statusChange(source, "closed", ctx.now),
      mergedIntoId: target.id,
      messageCount: 0,
      updatedAt: ctx.now,
    }),
  ];
}

/**
 * POST /v1/tickets/{id}/manage. None of these fire `ticket.updated` (the spec): they are workflow
 * actions, not edits.
 */
export async function manageTicket(ctx: TicketContext, id: string, input: ManageInput) {
  if (input.action === "assign") await assertAssignable(ctx, input.user_id, "body.user_id");
  const { ticket } = await ticketOf(ctx, id);
  const statements: Statement[] = [];
  const changes = changesFor(ticket, input, ctx.now);
  if (changes) statements.push(updateTicketStatement(ctx.db, id, { ...changes, updatedAt: ctx.now }));
  if (input.action === "add_tags") {
    const found = await ensureTags(
      ctx.db,
      ctx.accountId,
      ticket.inboxId,
      input.tags,
      () => newId("tag"),
      ctx.now,
    );
    statements.push(
      ...linkTagStatements(
        ctx.db,
        ctx.accountId,
        id,
        found.map((t) => t.id),
        ctx.now,
      ),
    );
  }
  if (input.action === "remove_tags") {
    const keys = input.tags.map(tagNameKey);
    const found = await ctx.db.select().from(tags).where(eq(tags.inboxId, ticket.inboxId));
    statements.push(
      ...found.filter((t) => keys.includes(t.nameKey)).map((t) => unlinkTagStatement(ctx.db, id, t.id)),
    );
  }
  if (input.action === "merge")
    statements.push(...(await mergeStatements(ctx, ticket, input.into_ticket_id)));
  if (input.action === "add_tags" || input.action === "remove_tags")
    statements.push(updateTicketStatement(ctx.db, id, { updatedAt: ctx.now }));
  await runBatch(ctx.db, statements);
  return showTicket(ctx, id);
}

/** GET/POST/DELETE /v1/tickets/{id}/tags. */
export async function addTicketTag(
  ctx: TicketContext,
  id: string,
  input: { tag_id?: string | undefined; name?: string | undefined },
) {
  const { ticket } = await ticketOf(ctx, id);
  let tagId = input.tag_id;
  if (tagId) {
    const rows = await ctx.db
      .select()
      .from(tags)
      .where(and(eq(tags.accountId, ctx.accountId), eq(tags.id, tagId)))
      .limit(1);
    if (!rows[0]) throw notFound(`Tag ${tagId}`);
    if (rows[0].inboxId !== ticket.inboxId)
      throw badRequest(
        "tag_other_inbox",
        "Tag of another inbox",
        "Tags belong to one inbox; this one is not the ticket's.",
      );
  } else {
    const [created] = await ensureTags(
      ctx.db,
      ctx.accountId,
      ticket.inboxId,
      [input.name ?? ""],
      () => newId("tag"),
      ctx.now,
    );
    tagId = created?.id;
  }
  if (!tagId) throw notFound("Tag");
  await runBatch(ctx.db, [
    ...linkTagStatements(ctx.db, ctx.accountId, id, [tagId], ctx.now),
    updateTicketStatement(ctx.db, id, { updatedAt: ctx.now }),
  ]);
}

export async function removeTicketTag(ctx: TicketContext, id: string, tagId: string) {
  await ticketOf(ctx, id);
  const rows = await ctx.db
    .delete(ticketTags)
    .where(and(eq(ticketTags.ticketId, id), eq(ticketTags.tagId, tagId)))
    .returning({ tagId: ticketTags.tagId });
  if (rows.length === 0) throw notFound(`Tag ${tagId} on ticket ${id}`);
}
