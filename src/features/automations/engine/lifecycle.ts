import { and, eq, isNull } from "drizzle-orm";
import { createDb } from "../../../db/client";
import { automationEnrollments } from "../../../db/schema";

/**
 * Where the API hands an enrolment to the engine and takes it back. Each enrolment runs as one
 * Cloudflare Workflow instance whose id is the enrolment's id, so starting one twice is refused by
 * the platform and a cancel reaches exactly that run.
 */

export interface EnrollmentParams {
  enrollmentId: string;
  /** The enrolment's workspace, whose shard each step finds (absent from runs started before shards). */
  accountId?: string;
}

/**
 * The event that releases enrolments held by a paused automation (see releaseHeldEnrollments).
 * Defined here, not beside the Workflow class, so the API's modules never import
 * `cloudflare:workers` (the OpenAPI document is also built in Node).
 */
export const ACTIVATED_EVENT = "automation-activated";

/**
 * Starts the runs of freshly inserted enrolments of one workspace (at most 100 per call, the
 * platform's batch).
 */
export async function startEnrollments(
  env: Pick<Env, "ENROLLMENT_WORKFLOW">,
  enrollmentIds: string[],
  accountId?: string,
): Promise<void> {
  if (enrollmentIds.length === 0) return;
  const params = (id: string): EnrollmentParams => ({
    enrollmentId: id,
    ...(accountId ? { accountId } : {}),
  });
  await env.ENROLLMENT_WORKFLOW.createBatch(enrollmentIds.map((id) => ({ id, params: params(id) })));
}

/**
 * Ends the run of a cancelled enrolment. The enrolment's row is already `cancelled` (the engine
 * re-reads it before every step, so even a run that misses this call acts no further); terminating
 * the instance frees what it holds. An instance that already ended is not an error.
 */
export async function stopEnrollment(
  env: Pick<Env, "ENROLLMENT_WORKFLOW">,
  enrollmentId: string,
): Promise<void> {
  try {
    const instance = await env.ENROLLMENT_WORKFLOW.get(enrollmentId);
    await instance.terminate();
  } catch {
    // Finished, never started, or already terminated: nothing left to stop.
  }
}

/** How many held enrolments are told at once. */
const RELEASE_CONCURRENCY = 20;

/**
 * Releases the enrolments a paused automation held: each active enrolment's run, waiting at its
 * next step for the automation to be active again, goes on at once (without this, within a day).
 * The API's activate handler calls it after the automation is `active` (in `waitUntil`). A run
 * that is not held ignores the event: it decides again the next time it is held.
 */
export async function releaseHeldEnrollments(
  env: Env,
  accountId: string,
  automationId: string,
): Promise<void> {
  const rows = await createDb(env.DB)
    .select({ id: automationEnrollments.id })
    .from(automationEnrollments)
    .where(
      and(
        eq(automationEnrollments.accountId, accountId),
        eq(automationEnrollments.automationId, automationId),
        eq(automationEnrollments.status, "active"),
        isNull(automationEnrollments.nextRunAt),
      ),
    );
  for (let i = 0; i < rows.length; i += RELEASE_CONCURRENCY) {
    await Promise.allSettled(
      rows.slice(i, i + RELEASE_CONCURRENCY).map(async ({ id }) => {
        const instance = await env.ENROLLMENT_WORKFLOW.get(id);
        await instance.sendEvent({ type: ACTIVATED_EVENT, payload: { automation_id: automationId } });
      }),
    );
  }
}
