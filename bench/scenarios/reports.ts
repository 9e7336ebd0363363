/**
 * Reports over small and large workspaces (issue 28): the p50 of `GET /v1/reports/email` and
 * `GET /v1/reports/support` (the default 30 days, by week, and filtered) in a workspace of
 * 1,000,000 emails and 100,000 tickets against one of 1,000 emails and 100 tickets (goal: at most
 * 1.5 times apart), and the p95 of the dashboard's Overview in the large one (goal: under 100 ms).
 * Both workspaces are written straight into the local D1; the support rollups follow through
 * migration 0026's triggers and the email rollups are rebuilt by the backfills of migrations 0025 and 0028
 * (`reports-seed.ts`), then every report is checked once, over the whole seeded period, against
 * the exact counts of the seed. Requests go one at a time (`sequential.ts`), the sizes in
 * alternating slices. The seeded rows and rollups are deleted afterwards.
 */
import { call, describe } from "../lib/api";
import { removeLogsAndSessions, seedSession } from "../lib/dashboard-seed";
import { waitForQuiet } from "../lib/machine-load";
import { sleep } from "../lib/process-group";
import {
  type ReportWorkspace,
  rebuildEmailRollups,
  removeSeededReports,
  SEEDED_TAG,
  seedReportWorkspace,
} from "../lib/reports-seed";
import { type SequentialTarget, sequentialSlices } from "../lib/sequential";
import { localD1Bytes } from "../lib/tickets-seed";
import type { BenchContext, Figure, Goal, Scenario, ScenarioResult } from "../lib/types";

// The large workspace is the small one times 1,000 in emails, 1,000 in tickets: the same shape.
const SMALL = { emails: 1_000, tickets: 100 };
// BENCH_REPORTS_EMAILS makes the large one smaller on a machine where seeding a million takes too long.
const LARGE_EMAILS = Number(process.env.BENCH_REPORTS_EMAILS ?? 1_000_000);
const LARGE = { emails: LARGE_EMAILS, tickets: Math.floor(LARGE_EMAILS / 10) };
const GOAL_P50_RATIO = 1.5;
const GOAL_OVERVIEW_P95_MS = 100;
const MB = 1024 * 1024;

/** One report as measured, and what its totals over the whole seed must be. */
interface ReportCase {
  name: string;
  path: (w: ReportWorkspace) => string;
  /** The totals field the whole-period check reads, and its exact value for the seed. */
  field: "accepted" | "created";
  expected: (w: ReportWorkspace) => number;
}

// The seed's API email n carries category CATEGORIES[n % 4] (welcome for n % 4 = 0); ticket n is
// in inbox n % 4 and its reply is an email of that inbox; every fifth ticket is the owner's.
const apiEmails = (w: ReportWorkspace) => w.emails - w.tickets;
const REPORTS: ReportCase[] = [
  { name: "email", path: () => "/v1/reports/email", field: "accepted", expected: (w) => w.emails },
  {
    name: "email by week",
    path: () => "/v1/reports/email?interval=week",
    field: "accepted",
    expected: (w) => w.emails,
  },
  {
    name: "email inbox_id",
    path: (w) => `/v1/reports/email?inbox_id=${w.inboxIds[0]}`,
    field: "accepted",
    expected: (w) => Math.floor(w.tickets / 4),
  },
  {
    name: "email tag",
    path: () => `/v1/reports/email?tag=${SEEDED_TAG}`,
    field: "accepted",
    expected: (w) => Math.floor(apiEmails(w) / 4),
  },
  { name: "support", path: () => "/v1/reports/support", field: "created", expected: (w) => w.tickets },
  {
    name: "support by week",
    path: () => "/v1/reports/support?interval=week",
    field: "created",
    expected: (w) => w.tickets,
  },
  {
    name: "support inbox_id",
    path: (w) => `/v1/reports/support?inbox_id=${w.inboxIds[0]}`,
    field: "created",
    expected: (w) => Math.floor(w.tickets / 4),
  },
  {
    name: "support assignee_id",
    path: (w) => `/v1/reports/support?assignee_id=${w.ownerId}`,
    field: "created",
    expected: (w) => Math.floor(w.tickets / 5),
  },
];

const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;
const sizeName = (w: ReportWorkspace) =>
  w.emails >= 1_000_000 ? `${w.emails / 1_000_000}M` : `${w.emails / 1_000}k`;

/**
 * The call again after a connection failure: the local `wrangler dev` reloads now and then (when
 * another wrangler on the machine changes the dev registry) and refuses connections meanwhile.
 */
async function retried<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries) throw error;
      await sleep(2_000);
    }
  }
}

/**
 * Why a report over the whole seeded period (from its first day to today) does not hold exactly
 * the seed, or undefined; and how long that first call took (for the support report, it builds
 * the days' percentile sketches, which later calls read cached).
 */
async function check(ctx: BenchContext, w: ReportWorkspace, report: ReportCase) {
  const path = withQuery(report.path(w), `from=${new Date(w.firstDay).toISOString().slice(0, 10)}`);
  const started = performance.now();
  const answer = await retried(() => call({ ...ctx, token: w.token }, "GET", path));
  const ms = performance.now() - started;
  if (answer.status !== 200) return { ms, problem: `GET ${path} answered ${describe(answer)}` };
  const totals = (JSON.parse(answer.text) as { totals?: Record<string, unknown> }).totals ?? {};
  const expected = report.expected(w);
  if (totals[report.field] !== expected) {
    return {
      ms,
      problem: `GET ${path} (${sizeName(w)} emails) answered ${report.field} ${totals[report.field]}, the seed holds ${expected}`,
    };
  }
  return { ms, problem: undefined };
}

/** Why the Overview cannot be measured with this cookie, or undefined. */
async function checkOverview(ctx: BenchContext, cookie: string) {
  const response = await retried(() =>
    fetch(`${ctx.baseUrl}/dashboard`, {
      headers: { Cookie: cookie, Accept: "text/html" },
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    }),
  );
  const text = await response.text();
  if (response.status !== 200) return `GET /dashboard answered ${response.status} ${text.slice(0, 200)}`;
  if (!text.includes("Overview")) return "GET /dashboard answered 200 without the Overview";
  return undefined;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

export const reports: Scenario = {
  name: "reports",
  description: `reports at ${SMALL.emails.toLocaleString("en")} vs ${LARGE.emails.toLocaleString("en")} emails (${LARGE.tickets.toLocaleString("en")} tickets), and the Overview page`,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const figures: Figure[] = [];
    const result: ScenarioResult = { name: reports.name, measurements: [], goals: [], figures };
    if (process.env.BENCH_URL) {
      result.problems = [
        "it seeds the local D1 through wrangler (and signs in with a session written there), so it cannot measure BENCH_URL; not measured",
      ];
      return result;
    }

    const bytesBefore = localD1Bytes();
    const seeded: ReportWorkspace[] = [];
    try {
      const small = await seedReportWorkspace("Benchmark reports small", SMALL);
      seeded.push(small);
      const large = await seedReportWorkspace("Benchmark reports large", LARGE);
      seeded.push(large);
      const rollupSeconds = await rebuildEmailRollups();
      figures.push(
        ...seeded.map((w) => ({
          label: `seeding ${w.emails} emails and ${w.tickets} tickets, support rollups by their triggers`,
          value: w.seedSeconds,
          unit: "s",
        })),
        ...seeded.map((w) => ({
          label: `of which SQL as D1 timed it @${sizeName(w)}`,
          value: w.sqlSeconds,
          unit: "s",
        })),
        {
          label: "email rollups rebuilt by the backfills of migrations 0025 and 0028",
          value: rollupSeconds,
          unit: "s",
        },
        { label: "local D1 files grown by the seed", value: (localD1Bytes() - bytesBefore) / MB, unit: "MB" },
      );

      // The timed loop keeps no bodies: one exact call of each report first says why, if any fails.
      const problems: string[] = [];
      for (const w of seeded) {
        for (const report of REPORTS) {
          const { ms, problem } = await check(ctx, w, report);
          if (problem) problems.push(problem);
          if (report.name === "support")
            figures.push({
              label: `first support report @${sizeName(w)}, sketches built`,
              value: ms,
              unit: "ms",
            });
        }
      }
      const cookies: string[] = [];
      for (const w of seeded) cookies.push(await seedSession(w));
      // Plain http on loopback in development: the cookie is `session` (`__Host-session` needs https).
      const cookieName = new URL(ctx.baseUrl).protocol === "http:" ? "session" : "__Host-session";
      const overview = seeded.map((w, i) => ({
        label: `GET /dashboard @${sizeName(w)}, sequential`,
        url: `${ctx.baseUrl}/dashboard`,
        headers: { Cookie: `${cookieName}=${cookies[i]}`, Accept: "text/html" },
      }));
      for (const target of overview) {
        const problem = await checkOverview(ctx, target.headers.Cookie);
        if (problem) problems.push(problem);
      }
      if (problems.length > 0) {
        result.problems = [...problems, "not measured"];
        return result;
      }

      const api = (w: ReportWorkspace, report: ReportCase): SequentialTarget => ({
        label: `GET ${report.path(w).replace(/=[^&]+/g, "=…")} @${sizeName(w)}, sequential`,
        url: `${ctx.baseUrl}${report.path(w)}`,
        headers: { Authorization: `Bearer ${w.token}` },
      });
      const targets: SequentialTarget[] = [
        { label: "GET /health, sequential", url: `${ctx.baseUrl}/health` },
        ...REPORTS.flatMap((report) => [api(small, report), api(large, report)]),
        ...overview,
      ];
      // Seeding leaves the machine busy for a minute or two: the ratios are judged from a quiet start.
      result.measuredFrom = await waitForQuiet();
      const measured = await sequentialSlices(targets, ctx.seconds / 2);
      result.measurements = measured.map((m) => m.measurement);

      const [health, ...rest] = measured;
      if (health)
        figures.push({
          label: "GET /health p50 (the local round trip)",
          value: health.measurement.p50,
          unit: "ms",
        });
      REPORTS.forEach((report, i) => {
        const s = rest[2 * i];
        const l = rest[2 * i + 1];
        if (!s || !l) return;
        const value = ratio(l.measurement.p50, s.measurement.p50);
        result.goals.push({
          label: `p50 of GET /v1/reports (${report.name}), ${
            report.field === "created"
              ? `${large.tickets}/${small.tickets} tickets`
              : `${sizeName(large)}/${sizeName(small)} emails`
          }`,
          value,
          target: `<= ${GOAL_P50_RATIO}`,
          ratio: true,
          met: value > 0 && value <= GOAL_P50_RATIO,
        } satisfies Goal);
        figures.push(
          { label: `${report.name} p50 @${sizeName(small)}`, value: s.measurement.p50, unit: "ms" },
          { label: `${report.name} p50 @${sizeName(large)}`, value: l.measurement.p50, unit: "ms" },
          { label: `${report.name} p95 @${sizeName(small)}`, value: s.p95, unit: "ms" },
          { label: `${report.name} p95 @${sizeName(large)}`, value: l.p95, unit: "ms" },
        );
      });
      const [overviewSmall, overviewLarge] = rest.slice(2 * REPORTS.length);
      if (overviewSmall && overviewLarge) {
        figures.push(
          { label: `Overview p50 @${sizeName(small)}`, value: overviewSmall.measurement.p50, unit: "ms" },
          { label: `Overview p95 @${sizeName(small)}`, value: overviewSmall.p95, unit: "ms" },
          { label: `Overview p50 @${sizeName(large)}`, value: overviewLarge.measurement.p50, unit: "ms" },
        );
        result.goals.push({
          label: `Overview (GET /dashboard) p95 @${sizeName(large)} emails (ms)`,
          value: overviewLarge.p95,
          target: `< ${GOAL_OVERVIEW_P95_MS} ms`,
          met: overviewLarge.p95 > 0 && overviewLarge.p95 < GOAL_OVERVIEW_P95_MS,
        });
      }
      return result;
    } finally {
      try {
        const seconds = await removeSeededReports(seeded.map((w) => w.accountId));
        for (const w of seeded) await removeLogsAndSessions(w.accountId);
        figures.push({ label: "deleting the seeded rows and rollups afterwards", value: seconds, unit: "s" });
      } catch (error) {
        // The figures stand; only the disk space of the seed stays taken.
        console.error(`reports: could not delete the seeded rows: ${(error as Error).message}`);
      }
    }
  },
};
