import type { Figure, ScenarioResult } from "./types";

/**
 * The start of a scenario whose Worker calls a receiver in this process: its empty result, and
 * whether it can run at all. A deployed Worker (BENCH_URL) cannot reach this machine's loopback,
 * so against one the result says why and the scenario stops there.
 */
export function receiverScenarioStart(name: string, baseUrl: string) {
  const figures: Figure[] = [];
  const problems: string[] = [];
  const result: ScenarioResult = { name, measurements: [], goals: [], figures, problems };
  const local = /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(baseUrl);
  if (!local)
    problems.push("needs a local wrangler dev: a deployed Worker cannot reach this machine's receiver");
  return { result, figures, problems, local };
}
