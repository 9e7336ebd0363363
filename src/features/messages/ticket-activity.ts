import { sql } from "drizzle-orm";
import { keepsSnooze, snoozeAfter } from "../tickets/snooze";
import type { TicketRow } from "../tickets/tickets.repo";
import type { MessageRow } from "./messages.repo";

type TicketStatus = TicketRow["status"];

/** Statuses a customer's message moves back to `open` (product.md); `spam` stays `spam`. */
const REOPENED_BY_CUSTOMER = ["pending", "on_hold", "resolved", "closed"] as const;

/**
 * What a published message does to its ticket, as what this request saw (for the event it
 * fires): customers reopen, replies set the after-reply status, notes only count.
 */
export function ticketAfterMessage(
  ticket: TicketRow,
  type: MessageRow["type"],
  afterReply: TicketStatus,
  now: number,
): TicketRow {
  const counted = { ...ticket, messageCount: ticket.messageCount + 1, lastMessageAt: now, updatedAt: now };
  if (type === "customer" && ticket.status !== "spam") {
    const reopen = (REOPENED_BY_CUSTOMER as readonly string[]).includes(ticket.status);
    return { ...counted, snoozedUntil: null, ...(reopen ? { status: "open", closedAt: null } : {}) };
  }
  if (type === "reply") {
    const closes = afterReply === "closed" || afterReply === "resolved";
    const snoozedUntil = snoozeAfter(afterReply, ticket.snoozedUntil);
    return {
      ...counted,
      status: afterReply,
      closedAt: closes ? (ticket.closedAt ?? now) : null,
      snoozedUntil,
    };
  }
  return counted;
}

/**
 * The same change as one UPDATE that reads the row as it is when it runs: the count is an SQL
 * increment and the status rule is a CASE on the current status, so concurrent messages on one
 * ticket never lose each other's updates.
 */
export function bumpTicketStatement(
  accountId: string,
  ticketId: string,
  type: MessageRow["type"],
  afterReply: TicketStatus,
  now: number,
) {
  const reopened = sql.join(
    REOPENED_BY_CUSTOMER.map((status) => sql`${status}`),
    sql`, `,
  );
  const change =
    type === "customer"
      ? sql`,
        status = CASE WHEN status IN (${reopened}) THEN 'open' ELSE status END,
        closed_at = CASE WHEN status IN (${reopened}) THEN NULL ELSE closed_at END,
        snoozed_until = CASE WHEN status = 'spam' THEN snoozed_until ELSE NULL END`
      : type === "reply"
        ? sql`,
        status = ${afterReply},
        closed_at = CASE WHEN ${afterReply} IN ('closed', 'resolved') THEN coalesce(closed_at, ${now}) ELSE NULL END${
          keepsSnooze(afterReply) ? sql`` : sql`, snoozed_until = NULL`
        }`
        : sql``;
  return sql`
    UPDATE tickets SET message_count = message_count + 1, last_message_at = ${now}, updated_at = ${now}${change}
    WHERE id = ${ticketId} AND account_id = ${accountId}`;
}
