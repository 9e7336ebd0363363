import type { EnrollmentParams } from "./enrollment-workflow";

/**
 * Where the API hands an enrolment to the engine and takes it back. Each enrolment runs as one
 * Cloudflare Workflow instance whose id is the enrolment's id, so starting one twice is refused by
 * the platform and a cancel reaches exactly that run.
 */

/** Starts the runs of freshly inserted enrolments (at most 100 per call, the platform's batch). */
export async function startEnrollments(env: Env, enrollmentIds: string[]): Promise<void> {
  if (enrollmentIds.length === 0) return;
  const params = (id: string): EnrollmentParams => ({ enrollmentId: id });
  await env.ENROLLMENT_WORKFLOW.createBatch(enrollmentIds.map((id) => ({ id, params: params(id) })));
}
