import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type AutomationTriggerType,
  automationEnrollments,
  type EnrollmentStatus,
  enrollmentSteps,
} from "../../db/schema";
import type { AutomationRow } from "./automations.repo";
import { underLoopBound } from "./loop-bound";

export type EnrollmentRow = typeof automationEnrollments.$inferSelect;
export type EnrollmentStepRow = typeof enrollmentSteps.$inferSelect;

/** SQLite's name for the partial unique index that allows one active enrolment per customer. */
export const ACTIVE_GUARD = "automation_enrollments.automation_id, automation_enrollments.reentry_guard";

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(automationEnrollments.accountId, accountId), eq(automationEnrollments.id, id));

/** A new active enrolment at the automation's first step; the guard is set unless re-entry is allowed. */
export function newEnrollment(
  automation: AutomationRow,
  customerId: string,
  trigger: { type: AutomationTriggerType; data: Record<string, unknown> },
  id: string,
  now: number,
): EnrollmentRow {
  const steps = JSON.parse(automation.steps) as Array<{ id: string }>;
  return {
    id,
    accountId: automation.accountId,
    automationId: automation.id,
    customerId,
    status: "active",
    currentStep: steps[0]?.id ?? null,
    nextRunAt: null,
    triggerType: trigger.type,
    triggerData: JSON.stringify(trigger.data),
    reentryGuard: automation.allowReentry ? null : customerId,
    causedBy: null,
    note: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
}

/** The insert of a single enrolment: the guard refuses it with a unique violation. */
export const insertEnrollment = (db: Db, row: typeof automationEnrollments.$inferInsert) =>
  db.insert(automationEnrollments).values(row);

/**
 * Enrolments of many customers into one automation in one statement (D1 binds at most 100
 * parameters, so the rows travel as one JSON value). Customers the guard refuses (already active)
 * are skipped silently; RETURNING answers the ids really inserted. `causedBy` is the enrolment whose
 * step makes these: then customers past the loop bound (loop-bound.ts) are skipped too.
 */
export function insertEnrollmentsSkippingActive(
  automation: AutomationRow,
  enrollments: ReadonlyArray<{ id: string; customerId: string }>,
  trigger: { type: AutomationTriggerType; data: Record<string, unknown> },
  now: number,
  causedBy: string | null = null,
) {
  const first = (JSON.parse(automation.steps) as Array<{ id: string }>)[0]?.id ?? null;
  const customerId = sql`j.value ->> 'customerId'`;
  const guard = automation.allowReentry ? sql`NULL` : customerId;
  // The WHERE (even a bare `true`) keeps SQLite from reading ON CONFLICT as a join constraint.
  const bound = causedBy ? underLoopBound(automation.id, customerId, now) : sql`true`;
  return sql`
    INSERT INTO automation_enrollments (id, account_id, automation_id, customer_id, status, current_step,
      trigger_type, trigger_data, reentry_guard, caused_by, created_at, updated_at)
    SELECT j.value ->> 'id', ${automation.accountId}, ${automation.id}, ${customerId}, 'active',
      ${first}, ${trigger.type}, ${JSON.stringify(trigger.data)}, ${guard}, ${causedBy}, ${now}, ${now}
    FROM json_each(${JSON.stringify(enrollments)}) AS j WHERE ${bound}
    ON CONFLICT DO NOTHING
    RETURNING id`;
}

/**
 * The customers (ids) a step may no longer enrol into the automation. Run in the batch before the
 * insert above, it reads the same state the insert's bound reads, so it names exactly those.
 */
export function customersPastLoopBound(automationId: string, customerIds: readonly string[], now: number) {
  return sql`
    SELECT j.value AS customer_id FROM json_each(${JSON.stringify(customerIds)}) AS j
    WHERE NOT (${underLoopBound(automationId, sql`j.value`, now)})`;
}

/** The queries behind GET /v1/automations/{id}/enrollments, newest first. */
export function enrollmentQueries(
  db: Db,
  accountId: string,
  automationId: string,
  status: EnrollmentStatus | undefined,
  limit: number,
  offset: number,
) {
  const where = and(
    eq(automationEnrollments.automationId, automationId),
    eq(automationEnrollments.accountId, accountId),
    status ? eq(automationEnrollments.status, status) : undefined,
  );
  return {
    page: db
      .select()
      .from(automationEnrollments)
      .where(where)
      .orderBy(desc(automationEnrollments.createdAt), desc(automationEnrollments.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(automationEnrollments).where(where),
  };
}

/** The enrolment and its history (oldest step first), in one round trip. */
export async function findEnrollmentWithHistory(db: Db, accountId: string, id: string) {
  const [rows, history] = await db.batch([
    db.select().from(automationEnrollments).where(ofWorkspace(accountId, id)).limit(1),
    db
      .select()
      .from(enrollmentSteps)
      .where(and(eq(enrollmentSteps.enrollmentId, id), eq(enrollmentSteps.accountId, accountId)))
      .orderBy(asc(enrollmentSteps.startedAt), sql`rowid`),
  ]);
  const row = rows[0];
  return row ? { row, history } : null;
}

/** Cancels the enrolment only while it is active; answers the new row, or null. */
export async function cancelActive(db: Db, accountId: string, id: string, now: number) {
  const rows = await db
    .update(automationEnrollments)
    .set({
      status: "cancelled",
      note: "Cancelled.",
      currentStep: null,
      nextRunAt: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(and(ofWorkspace(accountId, id), eq(automationEnrollments.status, "active")))
    .returning();
  return rows[0] ?? null;
}
