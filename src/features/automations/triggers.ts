import type { Db } from "../../db/client";
import { runBatch } from "../../db/client";
import { newId } from "../../lib/ids";
import { log } from "../../lib/logger";
import { afterResponse, type Defer } from "../../lib/request-context";
import { activeAutomationsFor } from "./automations.repo";
import { startRuns } from "./enrollment-runs";
import { customersPastLoopBound, insertEnrollmentsSkippingActive } from "./enrollments.repo";
import { type RefusedEnrollment, refusedByLoopBound } from "./loop-bound";

/**
 * The enrolment whose step is enrolling customers (an `add_to_group` step): the enrolments it makes
 * record it and are held to the loop bound (loop-bound.ts); the ones refused are appended to
 * `refused`, for the step's history.
 */
export interface StepCause {
  enrollmentId: string;
  refused: RefusedEnrollment[];
}

/** What the triggers that enrol on their own (a group join, a resolve) are given. */
export interface TriggerContext {
  db: Db;
  env: Pick<Env, "ENROLLMENT_WORKFLOW">;
  accountId: string;
  now: number;
  defer?: Defer;
  /** Set when an automation's step, not the API or a person, caused the trigger. */
  cause?: StepCause;
}

/**
 * Enrols customers into every active automation of the workspace with this trigger, one statement
 * per automation in one batch (customers already active in one are skipped), then starts the runs.
 * Answers the new enrolment ids. Runs after the response when `defer` is given: the change that
 * triggered it is committed already, and a failure here is logged, never the caller's. Caused by a
 * step, each automation's insert is preceded in the batch by the read of who is past the loop bound.
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
  const { cause } = ctx;
  const trigger = { type, data: cause ? { ...data, caused_by_enrollment_id: cause.enrollmentId } : data };
  const statements = automations.flatMap((automation) => {
    const rows = customerIds.map((customerId) => ({ id: newId("enr"), customerId }));
    const insert = insertEnrollmentsSkippingActive(automation, rows, trigger, ctx.now, cause?.enrollmentId);
    return cause ? [customersPastLoopBound(automation.id, customerIds, ctx.now), insert] : [insert];
  });
  const results = (await runBatch(ctx.db, statements)).map((result) => result.results as Row[]);
  const ids: string[] = [];
  for (const automation of automations) {
    if (cause) noteRefusals(ctx, cause, automation.id, results.shift() ?? []);
    ids.push(...(results.shift() ?? []).map((row) => row.id));
  }
  await startRuns(ctx.env, ctx.accountId, ids);
  return ids;
}

type Row = { id: string; customer_id: string };

function noteRefusals(ctx: TriggerContext, cause: StepCause, automationId: string, pastBound: Row[]) {
  for (const row of pastBound) {
    cause.refused.push(refusedByLoopBound(automationId, row.customer_id));
    log.warn("automations.loop_bound", {
      account_id: ctx.accountId,
      automation_id: automationId,
      enrollment_id: cause.enrollmentId,
    });
  }
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
