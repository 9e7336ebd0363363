import { announceEvents } from "../../webhooks/announce";
import { slaStatements } from "../sla/ticket-sla";
import { assertAssignable } from "../users/users.service";
import { afterTicketResolved, movedToResolved } from "./after-resolve";
import { snoozeAfter } from "./snooze";
import { recordTicketEvent, type TicketContext } from "./ticket-context";
import { runGuarded, type VersionGuard } from "./ticket-version";
import { type TicketRow, updateTicketStatement } from "./tickets.repo";
import type { UpdateTicketBodySchema } from "./tickets.schemas";
import { closedAtFor, showTicket } from "./tickets.service";
import { writableTicketOf } from "./writable-ticket";

type UpdateInput = (typeof UpdateTicketBodySchema)["_output"];

/**
 * PATCH: the edit and its `ticket.updated` event commit together; with a `guard` (If-Match) only
 * while the ticket is at the version it names.
 */
export async function updateTicket(ctx: TicketContext, id: string, input: UpdateInput, guard?: VersionGuard) {
  await assertAssignable(ctx, input.assignee_id, "body.assignee_id");
  const { ticket } = await writableTicketOf(ctx, id);
  const update = await ticketUpdate(ctx, ticket, input);
  await runGuarded(ctx, update.statements, guard);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [update.event], ctx.defer);
  if (movedToResolved(ticket.status, update.ticket.status)) await afterTicketResolved(ctx, update.ticket);
  return showTicket(ctx, id);
}

/**
 * A PATCH's change of `ticket` (as read) and its `ticket.updated`, ready for a batch: the
 * statements, the event to announce once they commit and the ticket as they leave it. The
 * assignee is checked by the caller, before anything is stored.
 */
export async function ticketUpdate(ctx: TicketContext, ticket: TicketRow, input: UpdateInput) {
  const changes = {
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(input.metadata !== undefined ? { metadata: JSON.stringify(input.metadata) } : {}),
    ...(input.assignee_id !== undefined ? { assigneeId: input.assignee_id } : {}),
    ...(input.status !== undefined
      ? {
          status: input.status,
          closedAt: closedAtFor(input.status, ticket.closedAt, ctx.now),
          snoozedUntil: snoozeAfter(input.status, ticket.snoozedUntil),
        }
      : {}),
    updatedAt: ctx.now,
  };
  const after = { ...ticket, ...changes };
  const event = await recordTicketEvent(ctx, "ticket.updated", after);
  const statements = [
    updateTicketStatement(ctx.db, ctx.accountId, ticket.id, changes),
    ...(await slaStatements(ctx, ticket, after, undefined, event.inbox)),
    ...event.statements,
  ];
  return { ticket: after, statements, event };
}
