import { and, eq } from "drizzle-orm";
import { createDb } from "../../../db/client";
import { automationEnrollments } from "../../../db/schema";

/**
 * Ends an enrolment that is still active: `completed` (no steps left, or its step was removed, the
 * note says so) or `failed`. A cancelled one stays cancelled.
 */
export async function endEnrollment(
  env: Env,
  enrollment: { id: string; accountId?: string },
  status: "completed" | "failed",
  note: string | null,
  now = Date.now(),
) {
  await createDb(env.DB)
    .update(automationEnrollments)
    .set({ status, currentStep: null, nextRunAt: null, note, finishedAt: now, updatedAt: now })
    .where(
      and(
        eq(automationEnrollments.id, enrollment.id),
        // The account when known; a run that failed before reading the enrolment knows only its id.
        enrollment.accountId ? eq(automationEnrollments.accountId, enrollment.accountId) : undefined,
        eq(automationEnrollments.status, "active"),
      ),
    );
}
