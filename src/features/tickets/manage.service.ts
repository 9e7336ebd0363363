import { and, eq } from "drizzle-orm";
import { runBatch, type Statement } from "../../db/client";
import { tags, type tickets, ticketTags } from "../../db/schema";
import { badRequest, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { slaStatements } from "../sla/ticket-sla";
import { tagNameKey } from "../tags/tags.service";
import { assertAssignable } from "../users/users.service";
import { afterTicketResolved, movedToResolved } from "./after-resolve";
import { asMergeConflict, mergeStatements } from "./merge";
import { snoozeAfter, snoozeChange } from "./snooze";
import type { TicketContext } from "./ticket-context";
import { ensureTags, linkTagStatements, unlinkTagStatement } from "./ticket-tags.repo";
import { runGuarded, type VersionGuard } from "./ticket-version";
import { type TicketRow, updateTicketStatement } from "./tickets.repo";
import type { ManageInput } from "./tickets.schemas";
import { closedAtFor, showTicket } from "./tickets.service";
import { writableTicketOf } from "./writable-ticket";

type Changes = Partial<typeof tickets.$inferInsert>;

const statusChange = (ticket: TicketRow, status: TicketRow["status"], now: number): Changes => ({
  status,
  closedAt: closedAtFor(status, ticket.closedAt, now),
  snoozedUntil: snoozeAfter(status, ticket.snoozedUntil),
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
    case "snooze":
      return snoozeChange(ticket, input.until, now);
    case "unsnooze":
      return { snoozedUntil: null };
    case "set_priority":
      return { priority: input.priority };
    default:
      return null;
  }
}

/**
 * POST /v1/tickets/{id}/manage. None of these fire `ticket.updated` (the spec): they are workflow
 * actions, not edits.
 */
export async function manageTicket(ctx: TicketContext, id: string, input: ManageInput, guard?: VersionGuard) {
  if (input.action === "assign") await assertAssignable(ctx, input.user_id, "body.user_id");
  const { ticket, inbox } = await writableTicketOf(ctx, id);
  const statements: Statement[] = [];
  const changes = changesFor(ticket, input, ctx.now);
  if (changes) {
    statements.push(updateTicketStatement(ctx.db, ctx.accountId, id, { ...changes, updatedAt: ctx.now }));
    statements.push(...(await slaStatements(ctx, ticket, { ...ticket, ...changes }, undefined, inbox)));
  }
  if (input.action === "add_tags") statements.push(...(await addTagsStatements(ctx, ticket, input.tags)));
  if (input.action === "remove_tags") {
    const keys = input.tags.map(tagNameKey);
    const found = await ctx.db
      .select()
      .from(tags)
      .where(and(eq(tags.accountId, ctx.accountId), eq(tags.inboxId, ticket.inboxId)));
    statements.push(
      ...found
        .filter((t) => keys.includes(t.nameKey))
        .map((t) => unlinkTagStatement(ctx.db, ctx.accountId, id, t.id)),
    );
  }
  if (input.action === "merge") {
    statements.push(...(await mergeStatements(ctx, ticket, input.into_ticket_id)));
    // The merge closes it: its SLA stops as a close's does.
    statements.push(...(await slaStatements(ctx, ticket, { ...ticket, status: "closed" }, undefined, inbox)));
  }
  if (input.action === "add_tags" || input.action === "remove_tags")
    statements.push(updateTicketStatement(ctx.db, ctx.accountId, id, { updatedAt: ctx.now }));
  await runGuarded(ctx, statements, guard).catch((error: unknown) => {
    throw input.action === "merge" && !guard?.expected ? asMergeConflict(error) : error;
  });
  if (changes?.status && movedToResolved(ticket.status, changes.status))
    await afterTicketResolved(ctx, ticket);
  return showTicket(ctx, id);
}

/**
 * The links that add tags to a ticket (the `add_tags` action), for the batch of the change: the
 * tags are made in the ticket's inbox first when new (an unused tag is harmless). A tag already on
 * the ticket is left as it is, so it is never linked or counted twice.
 */
export async function addTagsStatements(ctx: TicketContext, ticket: TicketRow, names: string[]) {
  const found = await ensureTags(ctx.db, ctx.accountId, ticket.inboxId, names, () => newId("tag"), ctx.now);
  return linkTagStatements(
    ctx.db,
    ctx.accountId,
    ticket.id,
    found.map((t) => t.id),
    ctx.now,
  );
}

/** GET/POST/DELETE /v1/tickets/{id}/tags. */
export async function addTicketTag(
  ctx: TicketContext,
  id: string,
  input: { tag_id?: string | undefined; name?: string | undefined },
) {
  const { ticket } = await writableTicketOf(ctx, id);
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
    updateTicketStatement(ctx.db, ctx.accountId, id, { updatedAt: ctx.now }),
  ]);
}

export async function removeTicketTag(ctx: TicketContext, id: string, tagId: string) {
  await writableTicketOf(ctx, id);
  const rows = await unlinkTagStatement(ctx.db, ctx.accountId, id, tagId).returning({
    tagId: ticketTags.tagId,
  });
  if (rows.length === 0) throw notFound(`Tag ${tagId} on ticket ${id}`);
}
