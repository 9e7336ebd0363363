import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";

export interface EnrollmentParams {
  enrollmentId: string;
}

/** One enrolment's run through its automation's steps (the engine lands in the following commits). */
export class EnrollmentWorkflow extends WorkflowEntrypoint<Env, EnrollmentParams> {
  override async run(_event: WorkflowEvent<EnrollmentParams>, _step: WorkflowStep): Promise<void> {}
}
