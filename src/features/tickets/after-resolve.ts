import { enrolResolvedTicketCustomer } from "../automations/triggers";
import type { TicketContext } from "./ticket-context";
import type { TicketRow } from "./tickets.repo";

/**
 * What follows a ticket's move to `resolved`, called by every path that resolves one (PATCH
 * status, the `resolve` action, a reply's `status_after_send`) once the change is committed, and
 * only when the ticket was not resolved before: its customer is enrolled into the workspace's
 * active `ticket_resolved` automations of the ticket's inbox, after the response.
 */
export async function afterTicketResolved(
  ctx: TicketContext,
  ticket: Pick<TicketRow, "id" | "inboxId" | "customerId">,
) {
  await enrolResolvedTicketCustomer(ctx, ticket);
}

/** Whether a change moved the ticket to `resolved` from another status. */
export const movedToResolved = (before: TicketRow["status"], after: TicketRow["status"]) =>
  before !== "resolved" && after === "resolved";
