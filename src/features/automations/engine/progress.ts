import { and, eq } from "drizzle-orm";
import { createDb, type Db } from "../../../db/client";
import { accounts, automationEnrollments, automations, customers, enrollmentSteps } from "../../../db/schema";
import { mayAct } from "../../../lib/workspace-gate";
import type { Step } from "../steps";

export type EnrollmentRow = typeof automationEnrollments.$inferSelect;
export type AutomationRow = typeof automations.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/** Everything a step acts on, read fresh before each step so edits and cancels are seen. */
export interface Progress {
  enrollment: EnrollmentRow;
  automation: AutomationRow;
  customer: CustomerRow | null;
  steps: Step[];
  reached: Set<string>;
  /** Whether the workspace may act (lib/workspace-gate.ts), read with the enrolment. */
  workspaceActive: boolean;
}

/** What the run does next; plain data, so a workflow step can return it and a replay reuse it. */
export type Decision =
  | { kind: "stop" }
  | { kind: "finish"; accountId: string; note: string | null }
  | { kind: "hold" }
  | { kind: "run"; step: Step };

/** Reads the enrolment (by its id, the instance's id), then its automation and customer by account. */
export async function loadProgress(db: Db, enrollmentId: string): Promise<Progress | null> {
  const [row] = await db
    .select({ enrollment: automationEnrollments, workspaceStatus: accounts.status })
    .from(automationEnrollments)
    .innerJoin(accounts, eq(accounts.id, automationEnrollments.accountId))
    .where(eq(automationEnrollments.id, enrollmentId))
    .limit(1);
  if (!row) return null;
  const enrollment = row.enrollment;
  const accountId = enrollment.accountId;
  const [found, people, history] = await db.batch([
    db
      .select()
      .from(automations)
      .where(and(eq(automations.id, enrollment.automationId), eq(automations.accountId, accountId)))
      .limit(1),
    db
      .select()
      .from(customers)
      .where(and(eq(customers.id, enrollment.customerId), eq(customers.accountId, accountId)))
      .limit(1),
    db
      .select({ stepId: enrollmentSteps.stepId })
      .from(enrollmentSteps)
      .where(and(eq(enrollmentSteps.enrollmentId, enrollmentId), eq(enrollmentSteps.accountId, accountId))),
  ]);
  const automation = found[0];
  if (!automation) return null;
  return {
    enrollment,
    automation,
    customer: people[0] ?? null,
    steps: JSON.parse(automation.steps) as Step[],
    reached: new Set(history.map((h) => h.stepId)),
    workspaceActive: mayAct(row.workspaceStatus),
  };
}

/**
 * The next step of an active enrolment in its automation's CURRENT steps, so an edit changes only
 * steps not yet reached. `current_step` is the step the enrolment is at: unreached (set by the
 * trigger, or a claim that never landed) it runs; reached, the run goes on with the first later step
 * not reached yet (an edit that moved steps never makes one run twice). A current step the edit
 * removed ends the enrolment with a note, and so does a paused automation hold it.
 */
export function decide(progress: Progress | null): Decision {
  if (progress?.enrollment.status !== "active") return { kind: "stop" };
  const { enrollment, automation, steps, reached } = progress;
  const current = enrollment.currentStep;
  const at = current === null ? -1 : steps.findIndex((s) => s.id === current);
  if (current !== null && at === -1)
    return { kind: "finish", accountId: enrollment.accountId, note: `step ${current} was removed` };
  const start = current !== null && !reached.has(current) ? at : at + 1;
  const next = steps.slice(start).find((s) => !reached.has(s.id));
  if (!next) return { kind: "finish", accountId: enrollment.accountId, note: null };
  if (automation.status !== "active") return { kind: "hold" };
  return { kind: "run", step: next };
}

/** Reads and decides in one go, for the workflow's deciding step. */
export async function nextDecision(env: Env, enrollmentId: string): Promise<Decision> {
  return decide(await loadProgress(createDb(env.DB), enrollmentId));
}
