/**
 * Dashboard pages with 10,000 rows behind them (issue 12: p50 and p95 of the tickets page and the
 * request-logs page, goal p95 under 50 ms locally). A workspace gets 10,000 tickets and 10,000
 * request logs straight in the local D1 and a session for its owner; then each page's first page
 * (default size) is fetched one request at a time, as one person clicking would, WARM_UP times
 * unmeasured and SAMPLES times measured. Latency is from sending the request to the last byte of
 * the HTML over loopback, so it bounds the server's render time from above. p50 and p95 are exact
 * ranks of the samples. Afterwards the seeded rows and the session are deleted again.
 */
import { describe, quantile } from "../lib/api";
import { removeLogsAndSessions, SEEDED_LOG_PATH, seedLogsAndSession } from "../lib/dashboard-seed";
import { removeSeededTickets, seedTicketWorkspace } from "../lib/tickets-seed";
import type { BenchContext, Figure, Goal, Measurement, Scenario, ScenarioResult } from "../lib/types";

const ROWS = 10_000;
const WARM_UP = 20;
const SAMPLES = 200;
const GOAL_P95_MS = 50;
const CALL_TIMEOUT_MS = 30_000;

/**
 * Each target, and text its answer must show (for a page: proof that it read the seeded rows). The
 * health check, measured the same way, tells how much of a page's time the machine itself takes.
 */
const PAGES = [
  { name: "health check", path: "/health", seeded: '"ok"', goal: false },
  { name: "tickets page", path: "/dashboard/tickets", seeded: "Bench ticket ", goal: true },
  { name: "request-logs page", path: "/dashboard/request-logs", seeded: SEEDED_LOG_PATH, goal: true },
];

type Page = (typeof PAGES)[number];

interface Sample {
  ms: number;
  status: number;
}

/** One page view as the signed-in owner's browser asks for it (redirects are answers, not followed). */
async function view(ctx: BenchContext, cookie: string, path: string) {
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    headers: { Cookie: cookie, Accept: "text/html" },
    redirect: "manual",
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await response.text();
  return {
    ms: performance.now() - started,
    status: response.status,
    text,
    location: response.headers.get("Location"),
  };
}

/** Why one view of the page shows that measuring it would mean nothing, or undefined. */
async function probe(ctx: BenchContext, cookie: string, page: Page): Promise<string | undefined> {
  const answer = await view(ctx, cookie, page.path);
  if (answer.status === 303 && answer.location === "/login")
    return `GET ${page.path} redirected to /login: the seeded session was not accepted; not measured`;
  if (answer.status === 404)
    return `GET ${page.path} answered 404: this checkout has no ${page.name}; not measured`;
  if (answer.status !== 200) return `GET ${page.path} answered ${describe(answer)}; not measured`;
  if (!answer.text.includes(page.seeded))
    return `GET ${page.path} answered 200 but shows none of the seeded rows ("${page.seeded}"); not measured`;
  return undefined;
}

/** WARM_UP unmeasured views, then SAMPLES measured ones, strictly one after the other. */
async function sampleViews(ctx: BenchContext, cookie: string, page: Page) {
  for (let i = 0; i < WARM_UP; i++) await view(ctx, cookie, page.path);
  const samples: Sample[] = [];
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < SAMPLES; i++) {
    try {
      const { ms, status } = await view(ctx, cookie, page.path);
      samples.push({ ms, status });
    } catch {
      errors++;
    }
  }
  return { samples, errors, seconds: (performance.now() - started) / 1000 };
}

function summarize(page: Page, run: Awaited<ReturnType<typeof sampleViews>>) {
  const sorted = run.samples.map((s) => s.ms).sort((a, b) => a - b);
  const failed = run.samples.filter((s) => s.status !== 200);
  const label = `GET ${page.path}${page.goal ? ` @${ROWS / 1000}k` : ""}, sequential`;
  const measurement: Measurement = {
    label,
    rps: run.samples.length / run.seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    non2xx: failed.length,
    errors: run.errors,
    total: run.samples.length + run.errors,
  };
  const p95 = quantile(sorted, 0.95);
  const figures: Figure[] = [
    { label: `${page.name} p50`, value: measurement.p50, unit: "ms" },
    { label: `${page.name} p95`, value: p95, unit: "ms" },
  ];
  const goal: Goal = {
    label: `${page.name} p95 (ms)`,
    value: p95,
    target: `< ${GOAL_P95_MS} ms`,
    met: sorted.length > 0 && p95 < GOAL_P95_MS,
  };
  const problems = [
    ...(failed.length > 0
      ? [`${label}: ${failed.length} answers were not 200 (e.g. ${failed[0]?.status})`]
      : []),
    ...(run.errors > 0 ? [`${label}: ${run.errors} requests failed to connect or timed out`] : []),
  ];
  return { measurement, figures, goal, problems };
}

export const dashboardPages: Scenario = {
  name: "dashboard-pages",
  description: `p50 and p95 of the dashboard's tickets and request-logs pages over ${ROWS.toLocaleString("en")} rows`,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const result: ScenarioResult = { name: dashboardPages.name, measurements: [], goals: [], figures: [] };
    const problems: string[] = [];
    result.problems = problems;
    if (process.env.BENCH_URL) {
      problems.push(
        "skipped: it signs in by writing a session into the local D1, which the server at BENCH_URL does not read; run it without BENCH_URL",
      );
      return result;
    }

    const workspace = await seedTicketWorkspace("Benchmark dashboard", ROWS);
    try {
      const seeded = await seedLogsAndSession(workspace, ROWS);
      result.figures?.push(
        { label: `seeding ${ROWS} tickets (one local D1 batch)`, value: workspace.seedSeconds, unit: "s" },
        { label: `seeding ${ROWS} request logs and a session`, value: seeded.seconds, unit: "s" },
      );
      // Plain http on loopback in development: the cookie is `session` (`__Host-session` needs https).
      const name = new URL(ctx.baseUrl).protocol === "http:" ? "session" : "__Host-session";
      const cookie = `${name}=${seeded.sessionToken}`;
      for (const page of PAGES) {
        const problem = await probe(ctx, cookie, page);
        if (problem) {
          problems.push(problem);
          continue;
        }
        const summary = summarize(page, await sampleViews(ctx, cookie, page));
        result.measurements.push(summary.measurement);
        result.figures?.push(...summary.figures);
        if (page.goal) result.goals.push(summary.goal);
        problems.push(...summary.problems);
      }
      return result;
    } finally {
      try {
        await removeSeededTickets([workspace.accountId]);
        await removeLogsAndSessions(workspace.accountId);
      } catch (error) {
        // The figures stand; only the disk space of the seed stays taken.
        console.error(`dashboard-pages: could not delete the seeded rows: ${(error as Error).message}`);
      }
    }
  },
};
