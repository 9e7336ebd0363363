/**
 * The machine's load around a measurement. Other processes slow the cheapest route (GET /health)
 * more than the path measured against it, so a ratio taken on a busy machine says little: issue 47
 * asks every figure to carry the load it was measured at, and no ratio to PASS above a load of 1.
 *
 * The load that judges is the one just before the measurement: the measurement loads the machine
 * itself (20 connections keep both cores busy), so the load at its end is the bench's own, and a
 * ratio judged on it could never pass. The end is printed beside it all the same.
 */
import { loadavg } from "node:os";
import type { Goal, MachineLoad } from "./types";

/** Above this 1-minute load average a ratio is not judged. */
export const QUIET_LOAD = 1;

export const currentLoad = (): number => loadavg()[0] ?? 0;

/** How long `waitForQuiet` waits at most (BENCH_QUIET_WAIT seconds, default 300). */
const quietWaitSeconds = () => Number(process.env.BENCH_QUIET_WAIT ?? 300);

/**
 * Waits until the 1-minute load is at most QUIET_LOAD, at most BENCH_QUIET_WAIT seconds, and answers
 * the load then. A scenario calls it after its own seeding (which leaves the load high for a minute
 * or two) and before it measures; run.ts before each scenario. When the machine stays busy it goes
 * on: the figure is then printed as measured under load.
 */
export async function waitForQuiet(): Promise<number> {
  const deadline = Date.now() + quietWaitSeconds() * 1000;
  let told = false;
  while (currentLoad() > QUIET_LOAD && Date.now() < deadline) {
    if (!told)
      console.log(
        `  waiting for a quiet machine (load ${currentLoad().toFixed(2)}, want <= ${QUIET_LOAD})...`,
      );
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return currentLoad();
}

export const formatLoad = (load: MachineLoad | undefined): string =>
  load === undefined ? "unknown" : `${load.start.toFixed(2)}→${load.end.toFixed(2)}`;

/** A ratio goal measured on a busy machine (or at an unknown load) is reported, not judged. */
export function underLoad(goal: Goal, load: MachineLoad | undefined): boolean {
  if (!goal.ratio) return false;
  return load === undefined || load.start > QUIET_LOAD;
}
