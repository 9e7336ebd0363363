import type { EnrollmentParams } from "./enrollment-workflow";

/**
 * Where the API hands an enrolment to the engine and takes it back. Each enrolment runs as one
 * Cloudflare Workflow instance whose id is the enrolment's id, so starting one twice is refused by
 * the platform and a cancel reaches exactly that run.
 */

/** Starts the runs of freshly inserted enrolments (at most 100 per call, the platform's batch). */
export async function startEnrollments(
  env: Pick<Env, "ENROLLMENT_WORKFLOW">,
  enrollmentIds: string[],
): Promise<void> {
  if (enrollmentIds.length === 0) return;
  const params = (id: string): EnrollmentParams => ({ enrollmentId: id });
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
