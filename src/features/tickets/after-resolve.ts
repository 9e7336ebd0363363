import { afterResponse } from "../../lib/request-context";
import { enrolResolvedTicketCustomer } from "../automations/triggers";
import { sendSurveyEmail } from "../surveys/survey-send";
import type { TicketContext } from "./ticket-context";
import type { TicketRow } from "./tickets.repo";

type TicketStatus = TicketRow["status"];

/** Whether a change took the ticket to `resolved` from another status (a no-op resolve does not). */
export const movedToResolved = (before: TicketStatus, after: TicketStatus) =>
  before !== "resolved" && after === "resolved";

/**
 * What follows a ticket's move to `resolved`, called by every path that resolves one (PATCH, the
 * manage action, a reply's after-send status; the dashboard uses the same services) once its
 * change has committed: the survey email, and the enrolment of its customer into the workspace's
 * active `ticket_resolved` automations of its inbox. The work runs after the response (ctx.defer,
 * i.e. waitUntil) so the resolving request is not slowed; without a defer it is awaited. It never
 * fails the resolve.
 */
export async function afterTicketResolved(
  ctx: TicketContext,
  ticket: Pick<TicketRow, "id" | "inboxId" | "customerId">,
): Promise<void> {
  await afterResponse(ctx.defer, "surveys.send_failed", { ticket_id: ticket.id }, () =>
    sendSurveyEmail(ctx, ticket.id),
  );
  await enrolResolvedTicketCustomer(ctx, ticket);
}
