import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../../db/client";
import { automationEnrollments, type EnrollmentStepStatus, enrollmentSteps } from "../../../db/schema";
import type { Step } from "../steps";
import type { EnrollmentRow } from "./progress";

/** How a step ended, as its history row records it. */
export interface StepOutcome {
  status: Exclude<EnrollmentStepStatus, "running">;
  error: string | null;
  detail: Record<string, unknown>;
}

export const succeeded = (detail: Record<string, unknown> = {}): StepOutcome => ({
  status: "succeeded",
  error: null,
  detail,
});
export const failed = (error: string, detail: Record<string, unknown> = {}): StepOutcome => ({
  status: "failed",
  error,
  detail,
});
export const skipped = (error: string, detail: Record<string, unknown> = {}): StepOutcome => ({
  status: "skipped",
  error,
  detail,
});

/** A claimed step still acting (or waiting). */
export interface Running {
  status: "running";
  error: null;
  detail: Record<string, unknown>;
}
const RUNNING: Running = { status: "running", error: null, detail: {} };

/**
 * THE CLAIM: the step's history row, inserted before the step acts. Its primary key (enrolment,
 * step) lets only one run insert it; the one whose insert changed a row is the one that acts.
 * `outcome` writes the row already settled (a claim that commits with the step's own writes).
 */
export function claimStatement(
  e: EnrollmentRow,
  step: Step,
  now: number,
  outcome: StepOutcome | Running = RUNNING,
): Statement {
  const finishedAt = outcome.status === "running" ? null : now;
  return sql`
    INSERT INTO ${enrollmentSteps} (enrollment_id, step_id, account_id, step_type, status, error, detail, started_at, finished_at)
    VALUES (${e.id}, ${step.id}, ${e.accountId}, ${step.type}, ${outcome.status}, ${outcome.error},
      ${JSON.stringify(outcome.detail)}, ${now}, ${finishedAt})
    ON CONFLICT DO NOTHING`;
}

/** The enrolment is at `step` now; a wait also says when it resumes. */
export function moveStatement(
  db: Db,
  e: EnrollmentRow,
  step: Step,
  now: number,
  nextRunAt: number | null = null,
) {
  return db
    .update(automationEnrollments)
    .set({ currentStep: step.id, nextRunAt, updatedAt: now })
    .where(
      and(
        eq(automationEnrollments.id, e.id),
        eq(automationEnrollments.accountId, e.accountId),
        eq(automationEnrollments.status, "active"),
      ),
    );
}

/** Settles a claimed step's history row. */
export function recordStatement(
  db: Db,
  e: EnrollmentRow,
  step: Step,
  outcome: StepOutcome,
  now: number,
  onlyIf?: SQL,
) {
  return db
    .update(enrollmentSteps)
    .set({
      status: outcome.status,
      error: outcome.error,
      detail: JSON.stringify(outcome.detail),
      finishedAt: now,
    })
    .where(
      and(
        eq(enrollmentSteps.enrollmentId, e.id),
        eq(enrollmentSteps.stepId, step.id),
        eq(enrollmentSteps.accountId, e.accountId),
        onlyIf,
      ),
    );
}

/** Claims the step and moves the enrolment to it; answers whether this run won the claim. */
export async function claim(db: Db, e: EnrollmentRow, step: Step, now: number, waiting?: { until: number }) {
  const running = waiting ? { ...RUNNING, detail: waiting } : RUNNING;
  const [claimed] = await runBatch(db, [
    claimStatement(e, step, now, running),
    moveStatement(db, e, step, now, waiting?.until ?? null),
  ]);
  return (claimed?.meta.changes ?? 0) > 0;
}

/**
 * The outcome of a step an earlier attempt claimed. Settled: that outcome (its writes are done).
 * Still `running`: the attempt died while acting, so whether it acted is unknown; it is recorded
 * failed and not repeated (a step runs at most once).
 */
export async function earlierOutcome(
  db: Db,
  e: EnrollmentRow,
  step: Step,
  now: number,
): Promise<StepOutcome> {
  const row = await historyRow(db, e, step);
  if (row && row.status !== "running") {
    return { status: row.status, error: row.error, detail: JSON.parse(row.detail ?? "{}") };
  }
  const outcome = failed("interrupted before its outcome was recorded; not repeated");
  await runBatch(db, [recordStatement(db, e, step, outcome, now)]);
  return outcome;
}

/** The step's history row, if it was reached. */
export async function historyRow(db: Db, e: EnrollmentRow, step: Step) {
  const [row] = await db
    .select()
    .from(enrollmentSteps)
    .where(
      and(
        eq(enrollmentSteps.enrollmentId, e.id),
        eq(enrollmentSteps.stepId, step.id),
        eq(enrollmentSteps.accountId, e.accountId),
      ),
    )
    .limit(1);
  return row ?? null;
}
