import { createDb } from "../../../db/client";
import { SUSPENDED_REASON } from "../../../lib/workspace-gate";
import type { Step } from "../steps";
import { endEnrollment } from "./end";
import type { StepOutcome } from "./history";
import { loadProgress } from "./progress";
import { groupStep } from "./steps/groups";
import { sendEmailStep } from "./steps/send-email";
import { updateCustomerStep } from "./steps/update-customer";
import { webhookStep } from "./steps/webhook";

/** What a step that acts at once answers the run; `cancelled` when the enrolment ended meanwhile. */
export type StepResult = StepOutcome | { status: "cancelled" };

/**
 * Runs one step that acts at once, re-reading the enrolment first: cancelled since the decision,
 * it does nothing; its workspace suspended, the run ends `failed` with the reason in its note and
 * the step does nothing. Each step claims its history row before acting, so a retry never acts twice.
 */
export async function runStep(
  env: Env,
  enrollmentId: string,
  step: Step,
  now = Date.now(),
): Promise<StepResult> {
  const progress = await loadProgress(createDb(env.DB), enrollmentId);
  if (progress?.enrollment.status !== "active") return { status: "cancelled" };
  if (!progress.workspaceActive) {
    await endEnrollment(env, progress.enrollment, "failed", SUSPENDED_REASON, now);
    return { status: "cancelled" };
  }
  switch (step.type) {
    case "send_email":
      return sendEmailStep(env, progress, step, now);
    case "webhook":
      return webhookStep(env, progress, step, now);
    case "add_to_group":
    case "remove_from_group":
      return groupStep(env, progress, step, now);
    case "update_customer":
      return updateCustomerStep(env, progress, step, now);
    case "wait":
      throw new Error("a wait is run by the workflow, not as one step");
  }
}
