/**
 * npm run bench [-- scenario ...]: starts a local API (or uses BENCH_URL/BENCH_TOKEN), runs the
 * selected scenarios (all by default) for BENCH_SECONDS each target, prints the measurements and
 * one table of every goal (PASS or MISS), and writes bench/results/latest.json and latest.md (the
 * goals table in Markdown, for docs/benchmarks.md). Exits 1 when the run failed or a measurement is invalid (too many
 * failed requests, or a problem a scenario reports); goals below target are reported but do not
 * fail the run.
 */
import { relative } from "node:path";
import { currentLoad, waitForQuiet } from "./lib/machine-load";
import { DEFAULT_CONNECTIONS, invalidity } from "./lib/measure";
import { formatTable, writeResults } from "./lib/report";
import { RESULTS_DIR, type Server, startServer } from "./lib/server";
import type { Scenario, ScenarioResult } from "./lib/types";
import { SCENARIOS } from "./scenarios/index";

function readSeconds(): number {
  const text = process.env.BENCH_SECONDS ?? "10";
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`BENCH_SECONDS must be a positive number, not "${text}"`);
  return seconds;
}

const NO_SERVER: Server = { baseUrl: "", token: "", fromDomain: undefined, stop: async () => {} };

function selectScenarios(names: string[]): Scenario[] {
  if (names.length === 0) return [...SCENARIOS];
  const unknown = names.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) {
    const known = SCENARIOS.map((s) => `${s.name} (${s.description})`).join("\n  ");
    throw new Error(`unknown scenario ${unknown.join(", ")}; available:\n  ${known}`);
  }
  return SCENARIOS.filter((s) => names.includes(s.name));
}

async function main(): Promise<number> {
  // Checked before the server starts so a typo costs nothing.
  const seconds = readSeconds();
  const scenarios = selectScenarios(process.argv.slice(2));
  const startedAt = new Date().toISOString();

  // Scenarios that start what they measure themselves need no API server: none is started for them alone.
  const server: Server = scenarios.every((s) => s.standalone) ? NO_SERVER : await startServer();
  const results: ScenarioResult[] = [];
  try {
    const sending = scenarios.filter((s) => s.needsSendingDomain).map((s) => s.name);
    if (sending.length > 0 && !server.fromDomain) {
      throw new Error(
        `${sending.join(", ")} need a verified domain (to send email or hold an inbox): set BENCH_FROM_DOMAIN to a verified sending domain of BENCH_TOKEN's workspace`,
      );
    }
    const ctx = {
      baseUrl: server.baseUrl,
      token: server.token,
      seconds,
      fromDomain: server.fromDomain,
      local: server.local,
    };
    for (const scenario of scenarios) {
      console.log(`Running ${scenario.name}: ${scenario.description} (${seconds} s per target)...`);
      const start = await waitForQuiet();
      const result = await scenario.run(ctx);
      results.push({ ...result, load: { start: result.measuredFrom ?? start, end: currentLoad() } });
    }
  } finally {
    await server.stop();
  }

  const problems = results.flatMap((r) => [
    ...r.measurements.map(invalidity).filter((p) => p !== undefined),
    ...(r.problems ?? []).map((p) => `${r.name}: ${p}`),
  ]);
  const file = writeResults(
    {
      startedAt,
      finishedAt: new Date().toISOString(),
      baseUrl: server.baseUrl,
      seconds,
      connections: DEFAULT_CONNECTIONS,
      valid: problems.length === 0,
      problems,
      scenarios: results,
    },
    RESULTS_DIR,
  );
  console.log(
    `\n${formatTable(results, problems.length === 0)}\n\nFigures written to ${relative(process.cwd(), file)}.`,
  );
  if (problems.length > 0) {
    console.error(
      `\nInvalid run, the figures above describe failures, not throughput:\n  ${problems.join("\n  ")}`,
    );
    return 1;
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
