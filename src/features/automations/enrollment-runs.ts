import { describeError, log } from "../../lib/logger";
import type { Defer } from "../../lib/request-context";
import { startEnrollments } from "./engine/lifecycle";

/** The platform's batch: at most 100 Workflow instances per create call. */
const START_CHUNK = 100;

/**
 * Starts the runs of a workspace's enrolments just committed, in chunks of 100, after the response when `defer`
 * is given. A failed start is logged, not thrown: the enrolment is stored and active either way.
 */
export async function startRuns(
  env: Pick<Env, "ENROLLMENT_WORKFLOW">,
  accountId: string,
  ids: string[],
  defer?: Defer,
) {
  const start = async () => {
    for (let i = 0; i < ids.length; i += START_CHUNK) {
      try {
        await startEnrollments(env, ids.slice(i, i + START_CHUNK), accountId);
      } catch (error) {
        log.error("automations.start_failed", {
          count: ids.slice(i, i + START_CHUNK).length,
          ...describeError(error),
        });
      }
    }
  };
  if (defer) defer(start());
  else await start();
}
