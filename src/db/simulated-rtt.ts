import { environmentOf } from "../env";

/**
 * Simulated distance to D1, in development only: every round trip waits the chosen time before it
 * leaves, by the copy it reaches (counting-d1.ts's model; locally there is only the one database).
 * It shows what reads from a nearby replica save when the primary is far away (`npm run bench --
 * global`). Set by the var `D1_SIMULATED_RTT=primary:80,replica:5` (milliseconds) for the life of
 * the isolate, or by PUT /_dev/d1-simulated-rtt, which the bench uses on its shared server.
 */
/** Which copy of the database a round trip reaches (counting-d1.ts decides which). */
export type D1Copy = "primary" | "replica";

export interface SimulatedRtt {
  primary_ms: number;
  replica_ms: number;
}

/** Module state, so per isolate: a local `wrangler dev` runs every entry point in one. */
let current: SimulatedRtt | undefined;
let fromVar: string | undefined;

const RTT_TEXT = /^\s*(primary|replica)\s*:\s*(\d{1,5})\s*$/;

/** `primary:80,replica:5` read; a copy not named waits nothing. */
export function parseSimulatedRtt(text: string): SimulatedRtt {
  const rtt = { primary_ms: 0, replica_ms: 0 };
  for (const part of text.split(",")) {
    const match = RTT_TEXT.exec(part);
    if (!match) {
      throw new Error(
        `D1_SIMULATED_RTT must look like "primary:80,replica:5" (milliseconds), not ${JSON.stringify(text)}`,
      );
    }
    rtt[match[1] === "primary" ? "primary_ms" : "replica_ms"] = Number(match[2]);
  }
  return rtt;
}

/** Whether round trips are delayed; picks up D1_SIMULATED_RTT the first time it sees it. */
export function simulatingRtt(env: object): boolean {
  if (environmentOf(env as Env) !== "development") return false;
  const text = (env as { D1_SIMULATED_RTT?: unknown }).D1_SIMULATED_RTT;
  if (typeof text === "string" && text !== "" && text !== fromVar) {
    current = parseSimulatedRtt(text);
    fromVar = text;
  }
  return current !== undefined;
}

export const simulatedRtt = (): SimulatedRtt | undefined => current;

/** PUT /_dev/d1-simulated-rtt (development only); zeros for both stop the waiting. */
export function setSimulatedRtt(rtt: SimulatedRtt): void {
  current = rtt.primary_ms === 0 && rtt.replica_ms === 0 ? undefined : { ...rtt };
}

/** The wait before a round trip to `copy`, or undefined for none. */
export function simulatedDelay(copy: D1Copy): Promise<void> | undefined {
  const ms = current && (copy === "primary" ? current.primary_ms : current.replica_ms);
  return ms ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}
