import {
  WorkflowEntrypoint,
  type WorkflowEvent,
  type WorkflowStep,
  type WorkflowStepConfig,
} from "cloudflare:workers";
import { countingEnv } from "../../../db/counting-d1";
import { directoryDb } from "../../../db/directory/client";
import { homeOf, LEGACY_SHARD } from "../../../db/directory/workspaces";
import { envFor } from "../../../db/shards";
import { describeError, log } from "../../../lib/logger";
import { workspaceMoving } from "../../../lib/workspace-moving";
import { endEnrollment } from "./end";
import { ACTIVATED_EVENT, type EnrollmentParams } from "./lifecycle";
import { type Decision, nextDecision } from "./progress";
import { runStep } from "./run-step";
import { endWait, startWait } from "./steps/wait";

/**
 * How long a held enrolment waits for that event before it looks again: each look costs two
 * workflow steps, so a day keeps even a pause of a year well inside the instance's step limit.
 */
const HOLD_TIMEOUT = "1 day";
/** Retries of a step that threw (D1 unavailable...): the claim keeps a retry from acting twice. */
const STEP_CONFIG: WorkflowStepConfig = {
  retries: { limit: 3, delay: "10 seconds", backoff: "exponential" },
  timeout: "2 minutes",
};

/**
 * One enrolment's run through its automation's steps. Before every step it re-reads the enrolment
 * and the automation from D1 and decides what comes next, so edits, pauses and cancels are seen.
 * Workflow steps are named by their position in the run and the automation step's id, so a replay
 * after a restart reuses every result it already has; a wait is a durable sleep, nothing in memory.
 */
export class EnrollmentWorkflow extends WorkflowEntrypoint<Env, EnrollmentParams> {
  constructor(ctx: ExecutionContext, env: Env) {
    // `env` itself unless D1_ROUND_TRIPS=count (the benchmarks' D1 round-trip counts).
    super(ctx, countingEnv(env, "workflow"));
  }

  override async run(event: WorkflowEvent<EnrollmentParams>, step: WorkflowStep): Promise<void> {
    const id = event.payload.enrollmentId;
    const { accountId } = event.payload;
    // Each step opens the workspace's shard as the directory names it then: a workspace moved
    // between two steps (a wait of days) is found where it is now.
    // While the workspace is being moved a step throws, and the Workflow retries it later.
    const env = async () => {
      const home = accountId ? await homeOf(directoryDb(this.env), accountId) : null;
      if (home?.frozen) throw workspaceMoving();
      return envFor(this.env, home?.shard ?? LEGACY_SHARD);
    };
    try {
      await this.steps(id, step, env);
    } catch (error) {
      // A step that kept throwing: the enrolment ends `failed` rather than staying active for ever.
      log.error("automations.enrollment_failed", { enrollment_id: id, ...describeError(error) });
      await step.do("failed", STEP_CONFIG, async () =>
        endEnrollment(await env(), { id }, "failed", "a step kept failing"),
      );
    }
  }

  private async steps(id: string, step: WorkflowStep, envOf: () => Promise<Env>) {
    for (let n = 1; ; n++) {
      const decision: Decision = await step.do(`${n} decide`, STEP_CONFIG, async () =>
        nextDecision(await envOf(), id),
      );
      if (decision.kind === "stop") return;
      if (decision.kind === "finish") {
        await step.do(`${n} finish`, STEP_CONFIG, async () =>
          endEnrollment(await envOf(), { id, accountId: decision.accountId }, "completed", decision.note),
        );
        return;
      }
      if (decision.kind === "hold") {
        await holdUntilActivated(step, n);
        continue;
      }
      const current = decision.step;
      if (current.type === "wait") {
        const until = await step.do(`${n} ${current.id} wait`, STEP_CONFIG, async () =>
          startWait(await envOf(), id, current),
        );
        if (until === null) return;
        await step.sleepUntil(`${n} ${current.id} sleep`, until);
        await step.do(`${n} ${current.id} resume`, STEP_CONFIG, async () =>
          endWait(await envOf(), id, current, until),
        );
        continue;
      }
      const result = await step.do(`${n} ${current.id}`, STEP_CONFIG, async () =>
        runStep(await envOf(), id, current),
      );
      if (result.status === "cancelled") return;
    }
  }
}

/** A paused automation's enrolment waits here until activated, or a day, then decides again. */
async function holdUntilActivated(step: WorkflowStep, n: number) {
  try {
    await step.waitForEvent(`${n} held`, { type: ACTIVATED_EVENT, timeout: HOLD_TIMEOUT });
  } catch {
    // No activation within the timeout: the next decision looks at the automation again.
  }
}
