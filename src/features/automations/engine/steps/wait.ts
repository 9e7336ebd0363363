import { and, eq } from "drizzle-orm";
import { createDb, runBatch } from "../../../../db/client";
import { automationEnrollments } from "../../../../db/schema";
import { durationSeconds, type Step } from "../../steps";
import { claim, historyRow, recordStatement, succeeded } from "../history";
import { loadProgress } from "../progress";

type WaitStep = Extract<Step, { type: "wait" }>;

/**
 * The start of a wait: claims it with the time it ends, kept in its history row and as the
 * enrolment's `next_run_at`; nothing else is held. A retried start answers the end its claim wrote.
 * Null when the enrolment is no longer active.
 */
export async function startWait(env: Env, enrollmentId: string, step: WaitStep, now = Date.now()) {
  const db = createDb(env.DB);
  const progress = await loadProgress(db, enrollmentId);
  if (progress?.enrollment.status !== "active") return null;
  const until = now + (durationSeconds(step.duration) ?? 0) * 1000;
  if (await claim(db, progress.enrollment, step, now, { until })) return until;
  const row = await historyRow(db, progress.enrollment, step);
  return (JSON.parse(row?.detail ?? "{}") as { until?: number }).until ?? until;
}

/** The end of a wait: recorded, and the enrolment, still at the wait, no longer waits. */
export async function endWait(
  env: Env,
  enrollmentId: string,
  step: WaitStep,
  until: number,
  now = Date.now(),
) {
  const db = createDb(env.DB);
  const progress = await loadProgress(db, enrollmentId);
  if (progress?.enrollment.status !== "active") return;
  const { enrollment } = progress;
  await runBatch(db, [
    recordStatement(db, enrollment, step, succeeded({ until, resumed_at: now }), now),
    db
      .update(automationEnrollments)
      .set({ nextRunAt: null, updatedAt: now })
      .where(
        and(
          eq(automationEnrollments.id, enrollment.id),
          eq(automationEnrollments.accountId, enrollment.accountId),
          eq(automationEnrollments.currentStep, step.id),
        ),
      ),
  ]);
}
