/**
 * The big lists of tranche 2 in a workspace of 1,000 rows against one of 100,000 (issue 17 goal 5:
 * p50 at most 1.5 times apart, with every total exact): a contact group's members, a campaign's
 * recipients, the request logs and the event stream, each plain and, where the API filters, with
 * its narrowest filter (pair). Each run seeds both workspaces straight into the local D1, probes
 * every list once for its exact total, measures, and deletes the seed.
 */
import { call, describe } from "../lib/api";
import {
  type BigListWorkspace,
  removeSeededBigLists,
  SEEDED_KEY,
  seedBigListWorkspace,
  seededEventName,
  seededEventOfInbox,
  seededLogKey,
  seededLogStatus,
  seededRecipientState,
} from "../lib/big-lists-seed";
import { waitForQuiet } from "../lib/machine-load";
import { interleaved, warmUp } from "../lib/measure";
import { countSeeded } from "../lib/tickets-seed";
import type { BenchContext, Figure, Measurement, Scenario, ScenarioResult } from "../lib/types";

const SMALL = 1_000;
const LARGE = 100_000;
const GOAL_P50_RATIO = 1.5;

interface List {
  label: string;
  path: (w: BigListWorkspace) => string;
  /** The exact total for a workspace of `rows` seeded rows. */
  total: (rows: number) => number;
}

// The request logs come first: their probe must run before the bench's own requests are logged.
const LISTS: List[] = [
  {
    label: "request logs",
    path: (w) => `/v1/accounts/${w.accountId}/request-logs`,
    total: (rows) => rows,
  },
  {
    label: "request logs by key and status",
    path: (w) => `/v1/accounts/${w.accountId}/request-logs?key_id=${SEEDED_KEY}&status=404`,
    total: (rows) => countSeeded(rows, (n) => seededLogKey(n) === SEEDED_KEY && seededLogStatus(n) === 404),
  },
  {
    label: "contact-group members",
    path: (w) => `/v1/contact-groups/${w.groupId}/members`,
    total: (rows) => rows,
  },
  {
    label: "campaign recipients",
    path: (w) => `/v1/campaigns/${w.campaignId}/recipients`,
    total: (rows) => rows,
  },
  {
    label: "campaign recipients by state",
    path: (w) => `/v1/campaigns/${w.campaignId}/recipients?state=sent`,
    total: (rows) => countSeeded(rows, (n) => seededRecipientState(n) === "sent"),
  },
  { label: "events", path: (w) => `/v1/accounts/${w.accountId}/events`, total: (rows) => rows },
  {
    label: "events by inbox and event",
    path: (w) => `/v1/accounts/${w.accountId}/events?inbox_id=${w.inboxId}&event=ticket.created`,
    total: (rows) =>
      countSeeded(rows, (n) => seededEventOfInbox(n) && seededEventName(n) === "ticket.created"),
  },
];

/** One call of the list, answered in full with its exact total, or why not. */
async function probe(ctx: BenchContext, w: BigListWorkspace, list: List) {
  const path = list.path(w);
  const answer = await call({ ...ctx, token: w.token }, "GET", path);
  if (answer.status !== 200) return `a single GET ${path} (${w.rows} rows) answered ${describe(answer)}`;
  const body = JSON.parse(answer.text) as { data?: unknown[]; pagination?: { total?: number } };
  const expected = list.total(w.rows);
  const rows = Math.min(50, expected);
  if (body.pagination?.total !== expected || body.data?.length !== rows) {
    return `GET ${path} (${w.rows} rows) answered ${body.data?.length} rows of total ${body.pagination?.total}, expected ${rows} of ${expected}`;
  }
  return undefined;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

async function measureLists(
  ctx: BenchContext,
  small: BigListWorkspace,
  large: BigListWorkspace,
  result: ScenarioResult,
) {
  const target = (w: BigListWorkspace, list: List) => ({
    url: `${ctx.baseUrl}${list.path(w)}`,
    headers: { Authorization: `Bearer ${w.token}` },
  });
  for (const list of LISTS) {
    const smallLoad = target(small, list);
    const largeLoad = target(large, list);
    await warmUp(smallLoad, 1);
    await warmUp(largeLoad, 1);
    const [smallM, largeM] = (await interleaved([
      { ...smallLoad, label: `GET ${list.label} @1k`, seconds: ctx.seconds },
      { ...largeLoad, label: `GET ${list.label} @100k`, seconds: ctx.seconds },
    ])) as [Measurement, Measurement];
    result.measurements.push(smallM, largeM);
    const p50Ratio = ratio(largeM.p50, smallM.p50);
    result.goals.push({
      label: `p50 of GET ${list.label}, 100k/1k rows`,
      value: p50Ratio,
      target: `<= ${GOAL_P50_RATIO}`,
      ratio: true,
      met: p50Ratio > 0 && p50Ratio <= GOAL_P50_RATIO,
    });
    result.figures?.push({
      label: `ratio ${list.label} 100k/1k req/s`,
      value: ratio(largeM.rps, smallM.rps),
      unit: "",
    });
  }
}

export const bigLists: Scenario = {
  name: "big-lists",
  description: "contact-group members, campaign recipients, request logs and events: 1,000 vs 100,000 rows",
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const result: ScenarioResult = { name: bigLists.name, measurements: [], goals: [] };
    if (process.env.BENCH_URL) {
      result.problems = [
        "it seeds the local D1 through wrangler, so it cannot measure BENCH_URL; not measured",
      ];
      return result;
    }
    const seeded: BigListWorkspace[] = [];
    try {
      const small = await seedBigListWorkspace("Benchmark lists 1k", SMALL);
      seeded.push(small);
      const large = await seedBigListWorkspace("Benchmark lists 100k", LARGE);
      seeded.push(large);
      const figures: Figure[] = [
        {
          label: `seeding ${SMALL} rows of each list (one local D1 batch)`,
          value: small.seedSeconds,
          unit: "s",
        },
        {
          label: `seeding ${LARGE} rows of each list (one local D1 batch)`,
          value: large.seedSeconds,
          unit: "s",
        },
      ];
      result.figures = figures;

      // One by one, in order: each probe is also a request the logs will record afterwards.
      const problems: string[] = [];
      for (const list of LISTS) {
        for (const w of [small, large]) {
          const problem = await probe(ctx, w, list);
          if (problem) problems.push(problem);
        }
      }
      if (problems.length > 0) {
        result.problems = [...problems, "not measured"];
        return result;
      }
      // Seeding leaves the machine busy for a minute or two: the ratios are judged from a quiet start.
      result.measuredFrom = await waitForQuiet();
      await measureLists(ctx, small, large, result);
      return result;
    } finally {
      try {
        const seconds = await removeSeededBigLists(seeded.map((w) => w.accountId));
        result.figures?.push({ label: "deleting the seeded rows afterwards", value: seconds, unit: "s" });
      } catch (error) {
        console.error(`big-lists: could not delete the seeded rows: ${(error as Error).message}`);
      }
    }
  },
};
