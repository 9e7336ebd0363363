import type { Db } from "../../db/client";
import { runBatch } from "../../db/client";
import { newId } from "../../lib/ids";
import { afterResponse, type Defer } from "../../lib/request-context";
import { activeAutomationsFor } from "./automations.repo";
import { startRuns } from "./enrollment-runs";
import { insertEnrollmentsSkippingActive } from "./enrollments.repo";

/** What the triggers that enrol on their own (a group join, a resolve) are given. */
export interface TriggerContext {
  db: Db;
  env: Pick<Env, "ENROLLMENT_WORKFLOW">;
  accountId: string;
  now: number;
  defer?: Defer;
}

/**
 * Enrols customers into every active automation of the workspace with this trigger, one statement
 * per automation in one batch (customers already active in one are skipped), then starts the runs.
 * Answers the new enrolment ids. Runs after the response when `defer` is given: the change that
 * triggered it is committed already, and a failure here is logged, never the caller's.
 */
async function enrol(
  ctx: TriggerContext,
  type: "group_joined" | "ticket_resolved",
  ref: string,
  customerIds: string[],
  data: Record<string, unknown>,
): Promise<string[]> {
  if (customerIds.length === 0) return [];
  const automations = await activeAutomationsFor(ctx.db, ctx.accountId, type, ref);
  if (automations.length === 0) return [];
  const statements = automations.map((automation) =>
    insertEnrollmentsSkippingActive(
      automation,
      customerIds.map((customerId) => ({ id: newId("enr"), customerId })),
      { type, data },
      ctx.now,
    ),
  );
  const results = await runBatch(ctx.db, statements);
  const ids = results.flatMap((result) => (result.results as Array<{ id: string }>).map((row) => row.id));
  await startRuns(ctx.env, ids);
  return ids;
}

const inBackground = (ctx: TriggerContext, event: string, work: () => Promise<unknown>) =>
  afterResponse(ctx.defer, event, { account_id: ctx.accountId }, work);

/** `group_joined`: the customers newly added to a contact group (members already in it never count). */
export function enrolGroupJoiners(ctx: TriggerContext, groupId: string, customerIds: string[]) {
  return inBackground(ctx, "automations.group_joined_failed", () =>
    enrol(ctx, "group_joined", groupId, customerIds, { contact_group_id: groupId }),
  );
}

/** `ticket_resolved`: the customer of a ticket of the inbox that has just moved to resolved. */
export function enrolResolvedTicketCustomer(
  ctx: TriggerContext,
  ticket: { id: string; inboxId: string; customerId: string },
) {
  return inBackground(ctx, "automations.ticket_resolved_failed", () =>
    enrol(ctx, "ticket_resolved", ticket.inboxId, [ticket.customerId], {
      ticket_id: ticket.id,
      inbox_id: ticket.inboxId,
    }),
  );
}
