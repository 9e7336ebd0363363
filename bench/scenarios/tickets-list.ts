/**
 * Listing tickets: `GET /v1/tickets?limit=50` and a filtered list (`status=open&priority=high`) as
 * ratios to the health check, then the same lists in a workspace of 1,000 tickets against one of
 * 100,000 (goal: p50 at most 1.5 times apart). Each run seeds both workspaces straight into the
 * local D1 (one INSERT ... SELECT over a recursive sequence per workspace), measures, and deletes
 * the seeded tickets again so that the local database does not grow by the seed on every run.
 * Every third ticket is open and every tenth high, so the filter matches one ticket in thirty: 33
 * of the small workspace (a short page) and 3,333 of the large one.
 */
import { call, describe } from "../lib/api";
import { interleaved, warmUp } from "../lib/measure";
import {
  countSeeded,
  localD1Bytes,
  removeSeededTickets,
  seededPriority,
  seededStatus,
  seedTicketWorkspace,
  type TicketWorkspace,
} from "../lib/tickets-seed";
import type { BenchContext, Figure, Measurement, Scenario, ScenarioResult } from "../lib/types";

const SMALL = 1_000;
const LARGE = 100_000;
const GOAL_P50_RATIO = 1.5;
const LIST = "/v1/tickets?limit=50";
const FILTERED = "/v1/tickets?limit=50&status=open&priority=high";
const MB = 1024 * 1024;

const isOpenHigh = (n: number) => seededStatus(n) === "open" && seededPriority(n) === "high";

/** What one call of each list must answer before its load means anything. */
async function probe(ctx: BenchContext, workspace: TicketWorkspace, path: string, expectedTotal: number) {
  const answer = await call({ ...ctx, token: workspace.token }, "GET", path);
  if (answer.status !== 200)
    return `a single GET ${path} (${workspace.tickets} tickets) answered ${describe(answer)}`;
  const list = JSON.parse(answer.text) as { data?: unknown[]; pagination?: { total?: number } };
  const expectedRows = Math.min(50, expectedTotal);
  if (list.pagination?.total !== expectedTotal || list.data?.length !== expectedRows) {
    return `GET ${path} (${workspace.tickets} tickets) answered ${list.data?.length} rows of total ${list.pagination?.total}, expected ${expectedRows} of ${expectedTotal}`;
  }
  return undefined;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

export const ticketsList: Scenario = {
  name: "tickets-list",
  description: "GET /v1/tickets (plain and filtered) vs /health, and 1,000 vs 100,000 tickets",
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const result: ScenarioResult = { name: ticketsList.name, measurements: [], goals: [] };
    if (process.env.BENCH_URL) {
      result.problems = [
        "it seeds the local D1 through wrangler, so it cannot measure BENCH_URL; not measured",
      ];
      return result;
    }

    const bytesBefore = localD1Bytes();
    const seeded: TicketWorkspace[] = [];
    try {
      const small = await seedTicketWorkspace("Benchmark tickets 1k", SMALL);
      seeded.push(small);
      const large = await seedTicketWorkspace("Benchmark tickets 100k", LARGE);
      seeded.push(large);
      const figures: Figure[] = [
        { label: `seeding ${SMALL} tickets (wrangler d1 execute)`, value: small.seedSeconds, unit: "s" },
        { label: `seeding ${LARGE} tickets (wrangler d1 execute)`, value: large.seedSeconds, unit: "s" },
        { label: `INSERT of ${LARGE} tickets as D1 timed it`, value: large.insertSeconds, unit: "s" },
        { label: "local D1 files grown by the seed", value: (localD1Bytes() - bytesBefore) / MB, unit: "MB" },
      ];
      result.figures = figures;

      // autocannon counts failures but keeps no bodies: one call of each list first says why, if any fails.
      const problems = (
        await Promise.all([
          probe(ctx, small, LIST, SMALL),
          probe(ctx, small, FILTERED, countSeeded(SMALL, isOpenHigh)),
          probe(ctx, large, LIST, LARGE),
          probe(ctx, large, FILTERED, countSeeded(LARGE, isOpenHigh)),
        ])
      ).filter((p) => p !== undefined);
      if (problems.length > 0) {
        result.problems = [...problems, "not measured"];
        return result;
      }

      const target = (workspace: TicketWorkspace, path: string) => ({
        url: `${ctx.baseUrl}${path}`,
        headers: { Authorization: `Bearer ${workspace.token}` },
      });
      const health = { url: `${ctx.baseUrl}/health` };
      const smallList = target(small, LIST);
      const smallFiltered = target(small, FILTERED);
      const largeList = target(large, LIST);
      const largeFiltered = target(large, FILTERED);
      for (const load of [health, smallList, smallFiltered, largeList, largeFiltered]) await warmUp(load);

      const seconds = ctx.seconds;
      const [healthM, listM, filteredM] = (await interleaved([
        { ...health, label: "GET /health", seconds },
        { ...smallList, label: `GET ${LIST} @1k`, seconds },
        { ...smallFiltered, label: `GET ${FILTERED} @1k`, seconds },
      ])) as [Measurement, Measurement, Measurement];
      const [listSmallM, listLargeM] = (await interleaved([
        { ...smallList, label: `size: GET ${LIST} @1k`, seconds },
        { ...largeList, label: `size: GET ${LIST} @100k`, seconds },
      ])) as [Measurement, Measurement];
      const [filteredSmallM, filteredLargeM] = (await interleaved([
        { ...smallFiltered, label: `size: GET ${FILTERED} @1k`, seconds },
        { ...largeFiltered, label: `size: GET ${FILTERED} @100k`, seconds },
      ])) as [Measurement, Measurement];
      result.measurements = [
        healthM,
        listM,
        filteredM,
        listSmallM,
        listLargeM,
        filteredSmallM,
        filteredLargeM,
      ];

      const p50Ratio = ratio(listLargeM.p50, listSmallM.p50);
      result.goals = [
        {
          label: `p50 of GET ${LIST}, 100k/1k tickets`,
          value: p50Ratio,
          target: `<= ${GOAL_P50_RATIO}`,
          met: p50Ratio > 0 && p50Ratio <= GOAL_P50_RATIO,
        },
      ];
      figures.push(
        { label: "ratio list@1k/health req/s", value: ratio(listM.rps, healthM.rps), unit: "" },
        { label: "ratio filtered@1k/health req/s", value: ratio(filteredM.rps, healthM.rps), unit: "" },
        { label: "ratio list 100k/1k p99", value: ratio(listLargeM.p99, listSmallM.p99), unit: "" },
        { label: "ratio list 100k/1k req/s", value: ratio(listLargeM.rps, listSmallM.rps), unit: "" },
        {
          label: "ratio filtered 100k/1k p50",
          value: ratio(filteredLargeM.p50, filteredSmallM.p50),
          unit: "",
        },
        {
          label: "ratio filtered 100k/1k p99",
          value: ratio(filteredLargeM.p99, filteredSmallM.p99),
          unit: "",
        },
        {
          label: "ratio filtered 100k/1k req/s",
          value: ratio(filteredLargeM.rps, filteredSmallM.rps),
          unit: "",
        },
      );
      return result;
    } finally {
      try {
        const seconds = removeSeededTickets(seeded.map((w) => w.accountId));
        result.figures?.push({ label: "deleting the seeded tickets afterwards", value: seconds, unit: "s" });
      } catch (error) {
        // The figures stand; only the disk space of the seed stays taken.
        console.error(`tickets-list: could not delete the seeded tickets: ${(error as Error).message}`);
      }
    }
  },
};
