import { AppError, badRequest } from "../../lib/errors";
import type { TicketRow } from "./tickets.repo";

/**
 * The statuses a ticket can be snoozed in, and that a wake turns back to `open`. Snoozing keeps
 * the status (a pending ticket stays pending while it sleeps); moving to any other status
 * (resolved, closed, spam, a merge) ends the snooze, so that the wake never reopens a finished ticket.
 */
export const SNOOZABLE_STATUSES = ["open", "pending", "on_hold"] as const;

export const keepsSnooze = (status: TicketRow["status"]) =>
  (SNOOZABLE_STATUSES as readonly string[]).includes(status);

/** The snooze a status change leaves: the current one, or none when the new status ends it. */
export const snoozeAfter = (status: TicketRow["status"], current: number | null) =>
  keepsSnooze(status) ? current : null;

/** The `snooze` action's change: a time to come, on a ticket that can sleep. */
export function snoozeChange(ticket: TicketRow, until: string, now: number) {
  const at = Date.parse(until);
  if (at <= now) throw badRequest("validation_error", "Invalid request", "`until` must be in the future.");
  if (!keepsSnooze(ticket.status))
    throw new AppError(
      409,
      "ticket_not_snoozable",
      "Ticket cannot be snoozed",
      `${ticket.id} is ${ticket.status}; only open, pending and on-hold tickets can be snoozed.`,
    );
  return { snoozedUntil: at };
}
