import { type SQL, sql } from "drizzle-orm";

/**
 * THE LOOP BOUND. An `add_to_group` step enrols the customer into the group's `group_joined`
 * automations, so automations that remove a customer from a group and add them back (one
 * automation, or two passing the customer between two groups) would enrol each other for ever
 * when they allow re-entry. An enrolment made by a step records the enrolment that made it
 * (`caused_by`), and a step may make at most LIMIT enrolments of one customer in one automation
 * within WINDOW; past that the enrolment is not made and the step's history says why.
 *
 * Why a count in a window and not the depth of the causal chain: a depth limit would also end,
 * after some months, a loop that waits between rounds on purpose (remove, wait 30 days, add back),
 * and with a step that fans out to several groups the enrolments under a depth limit grow
 * exponentially; a count per customer and automation bounds every shape, fan-out included, to
 * LIMIT per automation a day, and lets a deliberate loop run for ever as long as it waits over
 * 2.4 hours between rounds. The count and the insert are one statement, so concurrent steps or a
 * replayed run never pass the limit. Enrolments made by the API (POST /v1/automations/trigger), a
 * person adding members or a resolved ticket are neither counted nor refused.
 */
export const STEP_MADE_LIMIT = 10;
export const STEP_MADE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The rule as the OpenAPI descriptions state it. */
export const LOOP_BOUND_RULE = `An \`add_to_group\` step enrols into \`group_joined\` automations at most ${STEP_MADE_LIMIT} times per customer and automation in 24 hours (counting only enrolments made by steps), so automations that remove a customer from a group and add them back end even with \`allow_reentry\`; past that the step still adds the customer, does not enrol them, and lists each refusal with its reason in its history \`detail.refused_enrollments\`. Enrolments by POST /v1/automations/trigger, by people adding members and by resolved tickets are never counted nor refused.`;

/** Whether the customer (an SQL expression) may still be enrolled into the automation by a step. */
export function underLoopBound(automationId: string, customerId: SQL, now: number): SQL {
  return sql`(
    SELECT count(*) FROM automation_enrollments AS made
    WHERE made.automation_id = ${automationId} AND made.customer_id = ${customerId}
      AND made.caused_by IS NOT NULL AND made.created_at > ${now - STEP_MADE_WINDOW_MS}
  ) < ${STEP_MADE_LIMIT}`;
}

/** An enrolment a step would have made and did not, as the step's history records it. */
export interface RefusedEnrollment {
  automation_id: string;
  reason: string;
}

export const refusedByLoopBound = (automationId: string, customerId: string): RefusedEnrollment => ({
  automation_id: automationId,
  reason: `customer ${customerId} was already enrolled ${STEP_MADE_LIMIT} times by automation steps in the last 24 hours, so this step did not enrol them into automation ${automationId} again (the bound that ends automation loops; the API and people are not bound)`,
});
