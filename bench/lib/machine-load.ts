/**
 * The machine's load around a measurement. Other processes slow the cheapest route (GET /health)
 * more than the path measured against it, so a ratio taken on a busy machine says little: issue 47
 * asks every figure to carry the load it was measured at, and no ratio to PASS above a load of 1.
 */
import { loadavg } from "node:os";
import type { Goal, MachineLoad } from "./types";

/** Above this 1-minute load average a ratio is not judged. */
export const QUIET_LOAD = 1;

export const currentLoad = (): number => loadavg()[0] ?? 0;

/** The higher of the load at the start and the end: what the measurement went through at least. */
export const peakLoad = (load: MachineLoad | undefined): number | undefined =>
  load === undefined ? undefined : Math.max(load.start, load.end);

export const formatLoad = (load: MachineLoad | undefined): string =>
  load === undefined ? "unknown" : `${load.start.toFixed(2)}→${load.end.toFixed(2)}`;

/** A ratio goal measured on a busy machine (or at an unknown load) is reported, not judged. */
export function underLoad(goal: Goal, load: MachineLoad | undefined): boolean {
  if (!goal.ratio) return false;
  const peak = peakLoad(load);
  return peak === undefined || peak > QUIET_LOAD;
}
