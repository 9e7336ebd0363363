/**
 * Listing tickets: `GET /v1/tickets?limit=50` as a ratio to the health check (goal: at least 0.6),
 * then the same list in a workspace of 1,000 tickets against one of 100,000, and five filtered
 * lists (status, inbox_id, assignee_id, tag, status+priority) the same way (goal: p50 at most 1.5
 * times apart). Each run seeds both workspaces straight into the local D1 (one INSERT ... SELECT
 * over a recursive sequence per workspace; the triggers keep the filters' counters as it goes),
 * measures, and deletes the seeded tickets again so that the local database does not grow by the
 * seed on every run. Every list is first probed once for its exact `total` and page length.
 */
import { call, describe } from "../lib/api";
import { waitForQuiet } from "../lib/machine-load";
import { interleaved, warmUp } from "../lib/measure";
import { expectedTotal, FILTERED_LISTS, PLAIN_LIST, type TicketListCase } from "../lib/ticket-filters";
import {
  localD1Bytes,
  removeSeededTickets,
  seedTicketWorkspace,
  type TicketWorkspace,
} from "../lib/tickets-seed";
import type { BenchContext, Figure, Goal, Measurement, Scenario, ScenarioResult } from "../lib/types";

const SMALL = 1_000;
const LARGE = 100_000;
const GOAL_P50_RATIO = 1.5;
const GOAL_HEALTH_RATIO = 0.6;
const MB = 1024 * 1024;

/** What one call of a list must answer before its load means anything. */
async function probe(ctx: BenchContext, workspace: TicketWorkspace, list: TicketListCase) {
  const path = list.path(workspace);
  const answer = await call({ ...ctx, token: workspace.token }, "GET", path);
  if (answer.status !== 200)
    return `a single GET ${path} (${workspace.tickets} tickets) answered ${describe(answer)}`;
  const body = JSON.parse(answer.text) as { data?: unknown[]; pagination?: { total?: number } };
  const total = expectedTotal(list, workspace);
  const rows = Math.min(50, total);
  if (body.pagination?.total !== total || body.data?.length !== rows) {
    return `GET ${path} (${workspace.tickets} tickets) answered ${body.data?.length} rows of total ${body.pagination?.total}, expected ${rows} of ${total}`;
  }
  return undefined;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/** The goal that a list's p50 at 100k tickets is at most 1.5 times its p50 at 1k. */
function flatGoal(name: string, small: Measurement, large: Measurement): Goal {
  const value = ratio(large.p50, small.p50);
  return {
    label: `p50 of GET /v1/tickets (${name}), 100k/1k tickets`,
    value,
    target: `<= ${GOAL_P50_RATIO}`,
    ratio: true,
    met: value > 0 && value <= GOAL_P50_RATIO,
  };
}

export const ticketsList: Scenario = {
  name: "tickets-list",
  description: "GET /v1/tickets vs /health, and plain and filtered lists at 1,000 vs 100,000 tickets",
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
        { label: `seeding ${SMALL} tickets (one local D1 batch)`, value: small.seedSeconds, unit: "s" },
        { label: `seeding ${LARGE} tickets (one local D1 batch)`, value: large.seedSeconds, unit: "s" },
        {
          label: `INSERT of ${LARGE} tickets and tags as D1 timed it`,
          value: large.insertSeconds,
          unit: "s",
        },
        { label: "local D1 files grown by the seed", value: (localD1Bytes() - bytesBefore) / MB, unit: "MB" },
      ];
      result.figures = figures;

      // autocannon counts failures but keeps no bodies: one call of each list first says why, if any fails.
      const lists = [PLAIN_LIST, ...FILTERED_LISTS];
      const problems = (
        await Promise.all(lists.flatMap((list) => [probe(ctx, small, list), probe(ctx, large, list)]))
      ).filter((p) => p !== undefined);
      if (problems.length > 0) {
        result.problems = [...problems, "not measured"];
        return result;
      }

      const target = (workspace: TicketWorkspace, list: TicketListCase) => ({
        url: `${ctx.baseUrl}${list.path(workspace)}`,
        headers: { Authorization: `Bearer ${workspace.token}` },
      });
      const health = { url: `${ctx.baseUrl}/health` };
      for (const load of [health, ...lists.flatMap((l) => [target(small, l), target(large, l)])])
        await warmUp(load, 1);

      // Seeding leaves the machine busy for a minute or two: the ratios are judged from a quiet start.
      result.measuredFrom = await waitForQuiet();
      const seconds = ctx.seconds;
      // Where a list's time goes, measured not guessed: /v1/accounts is authentication and one small
      // query, limit=1 adds the list's fixed cost (its two statements), limit=50 the cost of 49 more rows.
      const auth = { url: `${ctx.baseUrl}/v1/accounts`, headers: { Authorization: `Bearer ${small.token}` } };
      const one = {
        ...target(small, PLAIN_LIST),
        url: target(small, PLAIN_LIST).url.replace("limit=50", "limit=1"),
      };
      for (const load of [auth, one]) await warmUp(load, 1);
      const [healthM, listM, authM, oneM] = (await interleaved([
        { ...health, label: "GET /health", seconds },
        { ...target(small, PLAIN_LIST), label: "GET /v1/tickets?limit=50 @1k", seconds },
        { ...auth, label: "GET /v1/accounts", seconds: seconds / 2 },
        { ...one, label: "GET /v1/tickets?limit=1 @1k", seconds: seconds / 2 },
      ])) as [Measurement, Measurement, Measurement, Measurement];
      figures.push(
        { label: "ratio GET /v1/accounts/health req/s", value: ratio(authM.rps, healthM.rps), unit: "" },
        { label: "ratio list limit=1/health req/s", value: ratio(oneM.rps, healthM.rps), unit: "" },
      );
      // Each list at both sizes, alternating, in shorter slices so that six pairs fit in the run.
      const sized = await interleaved(
        lists.flatMap((list) => [
          { ...target(small, list), label: `size: ${list.name} @1k`, seconds: seconds / 2 },
          { ...target(large, list), label: `size: ${list.name} @100k`, seconds: seconds / 2 },
        ]),
      );
      result.measurements = [healthM, listM, authM, oneM, ...sized];

      const healthRatio = ratio(listM.rps, healthM.rps);
      result.goals = [
        {
          label: "GET /v1/tickets?limit=50 @1k / GET /health req/s",
          value: healthRatio,
          target: `>= ${GOAL_HEALTH_RATIO}`,
          ratio: true,
          met: healthRatio >= GOAL_HEALTH_RATIO,
        },
        ...lists.map((list, i) =>
          flatGoal(list.name, sized[2 * i] as Measurement, sized[2 * i + 1] as Measurement),
        ),
      ];
      lists.forEach((list, i) => {
        const [s, l] = [sized[2 * i] as Measurement, sized[2 * i + 1] as Measurement];
        figures.push(
          { label: `ratio ${list.name} 100k/1k p99`, value: ratio(l.p99, s.p99), unit: "" },
          { label: `ratio ${list.name} 100k/1k req/s`, value: ratio(l.rps, s.rps), unit: "" },
        );
      });
      return result;
    } finally {
      try {
        const seconds = await removeSeededTickets(seeded.map((w) => w.accountId));
        result.figures?.push({ label: "deleting the seeded tickets afterwards", value: seconds, unit: "s" });
      } catch (error) {
        // The figures stand; only the disk space of the seed stays taken.
        console.error(`tickets-list: could not delete the seeded tickets: ${(error as Error).message}`);
      }
    }
  },
};
