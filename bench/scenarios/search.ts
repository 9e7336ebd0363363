/**
 * Full-text search of tickets (issue 44): p95 of `GET /v1/tickets?q=<word>` in a workspace of
 * 100,000 tickets with 500,000 messages against one of 1,000 tickets with 5,000 (goals: under
 * 100 ms, and within 1.5 times of the small one), requests one at a time. The word is in exactly
 * 20 tickets of each workspace, as a conversation someone looks for is. A word in about half the
 * tickets is measured too, as a figure (every hit is ranked). Also: the bytes the search index
 * (its FTS5 shadow tables, dbstat) grew by per seeded message. Seeds straight into the local D1
 * shard of each workspace and deletes the seed afterwards. BENCH_SEARCH_TICKETS sets the large
 * size (to try the scenario quickly).
 */

import { localTableSizes } from "../lib/dbstat";
import { waitForQuiet } from "../lib/machine-load";
import {
  MARKED,
  MARKER,
  removeSearchWorkspaces,
  type SearchWorkspace,
  seedSearchWorkspace,
} from "../lib/search-seed";
import { sequentialSlices } from "../lib/sequential";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";

const SMALL = 1_000;
const MESSAGES_PER_TICKET = 5;
const GOAL_P95_MS = 100;
const GOAL_RATIO = 1.5;
const INDEX_TABLES = [
  "ticket_search_data",
  "ticket_search_idx",
  "ticket_search_content",
  "ticket_search_docsize",
];

const indexBytes = () =>
  [...localTableSizes(INDEX_TABLES, []).values()].reduce((sum, size) => sum + size.bytes, 0);

export const search: Scenario = {
  name: "search",
  description:
    "GET /v1/tickets?q= p95 at 1,000 tickets (5,000 messages) vs 100,000 (500,000), and index bytes per message",
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const result: ScenarioResult = { name: search.name, measurements: [], goals: [] };
    if (process.env.BENCH_URL) {
      result.problems = [
        "it seeds the local D1 through wrangler, so it cannot measure BENCH_URL; not measured",
      ];
      return result;
    }
    const large = Number(process.env.BENCH_SEARCH_TICKETS ?? 100_000);
    const seeded: SearchWorkspace[] = [];
    const figures: Figure[] = [];
    result.figures = figures;
    try {
      const before = indexBytes();
      const small = await seedSearchWorkspace("Benchmark search 1k", SMALL, MESSAGES_PER_TICKET);
      seeded.push(small);
      const big = await seedSearchWorkspace(`Benchmark search ${large}`, large, MESSAGES_PER_TICKET);
      seeded.push(big);
      const grown = indexBytes() - before;
      figures.push(
        {
          label: `seeding ${SMALL} tickets, ${small.messages} messages`,
          value: small.seedSeconds,
          unit: "s",
        },
        { label: `seeding ${large} tickets, ${big.messages} messages`, value: big.seedSeconds, unit: "s" },
        {
          label: "search index bytes per message (its ticket's own row included)",
          value: grown / (small.messages + big.messages),
          unit: "B",
        },
      );
      const target = (w: SearchWorkspace, q: string, label: string) => ({
        label,
        url: `${ctx.baseUrl}/v1/tickets?q=${encodeURIComponent(q)}&limit=50`,
        headers: { Authorization: `Bearer ${w.token}` },
      });
      // The probe: each search answers its 20 tickets before its time means anything.
      for (const w of seeded) {
        const answer = await fetch(target(w, MARKER, "").url, { headers: target(w, MARKER, "").headers });
        const body = (await answer.json()) as { pagination?: { total?: number } };
        if (answer.status !== 200 || body.pagination?.total !== MARKED) {
          result.problems = [
            `q=${MARKER} at ${w.tickets} tickets answered ${answer.status}, total ${body.pagination?.total}, expected ${MARKED}; not measured`,
          ];
          return result;
        }
      }
      // Seeding leaves the machine busy for a minute or two: the ratio is judged from a quiet start.
      result.measuredFrom = await waitForQuiet();
      const common = "ba"; // two letters of a common syllable plus a vowel: in most messages
      const runs = await sequentialSlices(
        [
          target(small, MARKER, `q=${MARKER} @${SMALL}`),
          target(big, MARKER, `q=${MARKER} @${large}`),
          target(small, `${common}i`, `q=${common}i (most tickets) @${SMALL}`),
          target(big, `${common}i`, `q=${common}i (most tickets) @${large}`),
        ],
        ctx.seconds * 2,
      );
      const [s, l, cs, cl] = runs;
      result.measurements = runs.map((r) => r.measurement);
      for (const r of runs) figures.push({ label: `p95 ${r.measurement.label}`, value: r.p95, unit: "ms" });
      if (s && l) {
        const ratio = s.p95 > 0 ? l.p95 / s.p95 : 0;
        result.goals = [
          {
            label: `p95 q=${MARKER} @${large} tickets`,
            value: l.p95,
            target: `< ${GOAL_P95_MS} ms`,
            met: l.p95 < GOAL_P95_MS,
          },
          {
            label: `p95 q=${MARKER} ${large}/${SMALL} tickets`,
            value: ratio,
            target: `<= ${GOAL_RATIO}`,
            ratio: true,
            met: ratio > 0 && ratio <= GOAL_RATIO,
          },
        ];
      }
      if (cs && cl)
        figures.push({
          label: "p95 ratio, common word, large/small",
          value: cl.p95 / (cs.p95 || 1),
          unit: "",
        });
      return result;
    } finally {
      try {
        await removeSearchWorkspaces(seeded);
      } catch (error) {
        console.error(`search: could not delete the seed: ${(error as Error).message}`);
      }
    }
  },
};
