/**
 * Reads near the client (issue 29, part 5): the local server with a simulated distance to D1,
 * every round trip held back by the time to the copy it would reach in production (by default
 * 80 ms to the primary, 5 ms to a replica; BENCH_D1_RTT=primary:80,replica:5 to choose), set on
 * PUT /_dev/d1-simulated-rtt (src/db/simulated-rtt.ts) and unset afterwards. It reports:
 * - p50 of GET /v1/tickets and GET /v1/tickets/{id} without X-Service-Bookmark (the primary) and
 *   with one (a replica at least that fresh);
 * - the D1 round trips of each hot route, split by copy (the median of a few calls one at a time,
 *   counted inside the Worker: the request's own and the key guard's, not the queues' later work).
 * Goal: a read with a bookmark makes no round trip to the primary.
 */
import { describe } from "../lib/api";
import { interleaved, warmUp } from "../lib/measure";
import type { BenchContext, Goal, Measurement, Scenario, ScenarioResult } from "../lib/types";
import { UNCOUNTED } from "../lib/work-cost";

const BOOKMARK_HEADER = "X-Service-Bookmark";
const DEFAULT_RTT = "primary:80,replica:5";
/** Calls per route for its round trips: the median hides a key guard's occasional last-use write. */
const CALLS_PER_ROUTE = 5;
/** One client at a time: p50 is then what one caller far from the primary waits, not a queue on two busy cores. */
const CONNECTIONS = 1;
/** The entry points a request's own D1 work runs under (counting-d1.ts). */
const REQUEST_ENTRIES = ["fetch", "durable_object"] as const;

type Copy = "primary" | "replica";
interface Counts {
  by_copy: Record<Copy, Record<string, number>>;
}

function readRtt(): { primary_ms: number; replica_ms: number } {
  const text = process.env.BENCH_D1_RTT ?? DEFAULT_RTT;
  const rtt = { primary_ms: 0, replica_ms: 0 };
  for (const part of text.split(",")) {
    const match = /^\s*(primary|replica)\s*:\s*(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`BENCH_D1_RTT must look like "${DEFAULT_RTT}", not "${text}"`);
    rtt[match[1] === "primary" ? "primary_ms" : "replica_ms"] = Number(match[2]);
  }
  return rtt;
}

interface Answer {
  status: number;
  text: string;
  bookmark: string | null;
}

/** One call of the work measured: counted, unlike api.ts's GETs. */
async function send(
  ctx: BenchContext,
  method: string,
  path: string,
  options: { body?: unknown; bookmark?: string | undefined } = {},
): Promise<Answer> {
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${ctx.token}`,
      ...(options.bookmark ? { [BOOKMARK_HEADER]: options.bookmark } : {}),
      ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    text: await response.text(),
    bookmark: response.headers.get(BOOKMARK_HEADER),
  };
}

async function expectStatus(answer: Promise<Answer>, status: number, what: string): Promise<Answer> {
  const got = await answer;
  if (got.status !== status) throw new Error(`${what} answered ${describe(got)}`);
  return got;
}

async function devCall(ctx: BenchContext, method: "GET" | "PUT", path: string, body?: unknown) {
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: { ...UNCOUNTED, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${method} ${path} answered ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

const counts = async (ctx: BenchContext) => (await devCall(ctx, "GET", "/_dev/d1-round-trips")) as Counts;

const requestTrips = (after: Counts, before: Counts, copy: Copy) =>
  REQUEST_ENTRIES.reduce(
    (sum, entry) => sum + (after.by_copy[copy][entry] ?? 0) - (before.by_copy[copy][entry] ?? 0),
    0,
  );

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface HotRoute {
  label: string;
  method: "GET" | "POST" | "PATCH";
  /** Made anew per call: a create needs a fresh email address. */
  path: () => string;
  body?: () => unknown;
  status: number;
  /** Reads are counted twice: without a bookmark and with one. */
  read: boolean;
}

/** The round trips of one route: the median per copy of CALLS_PER_ROUTE calls, one at a time. */
async function tripsOf(ctx: BenchContext, route: HotRoute, bookmark: string | undefined) {
  const primary: number[] = [];
  const replica: number[] = [];
  for (let i = 0; i < CALLS_PER_ROUTE; i++) {
    const before = await counts(ctx);
    const body = route.body?.();
    await expectStatus(
      send(ctx, route.method, route.path(), { body, bookmark }),
      route.status,
      `${route.method} ${route.label}`,
    );
    const after = await counts(ctx);
    primary.push(requestTrips(after, before, "primary"));
    replica.push(requestTrips(after, before, "replica"));
  }
  return { primary: median(primary), replica: median(replica) };
}

export const globalReads: Scenario = {
  name: "global",
  description: `simulated distance to D1 (${process.env.BENCH_D1_RTT ?? DEFAULT_RTT} ms): reads with and without X-Service-Bookmark, D1 round trips per hot route`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const result: ScenarioResult = { name: globalReads.name, measurements: [], goals: [], figures: [] };
    if (!ctx.local) {
      result.problems = [
        "it simulates latency inside a local `wrangler dev`, so it cannot measure BENCH_URL",
      ];
      return result;
    }
    const rtt = readRtt();
    const run = Date.now().toString(36);
    const inbox = JSON.parse(
      (
        await expectStatus(
          send(ctx, "POST", "/v1/inboxes", {
            body: { name: "Bench global", email_address: `global-${run}@${ctx.fromDomain}` },
          }),
          201,
          "POST /v1/inboxes",
        )
      ).text,
    ) as { id: string };
    const created = await expectStatus(
      send(ctx, "POST", "/v1/tickets", {
        body: { inbox_id: inbox.id, customer: { email: `global-${run}@example.com` }, subject: "Global" },
      }),
      201,
      "POST /v1/tickets",
    );
    const ticket = JSON.parse(created.text) as { id: string; customer_id: string };
    const email = JSON.parse(
      (
        await expectStatus(
          send(ctx, "POST", "/v1/emails", {
            body: {
              from: `Bench <bench@${ctx.fromDomain}>`,
              to: "someone@example.com",
              subject: "Global",
              text: "Hi",
            },
          }),
          200,
          "POST /v1/emails",
        )
      ).text,
    ) as { id: string };
    let n = 0;
    const routes: HotRoute[] = [
      { label: "/v1/accounts", method: "GET", path: () => "/v1/accounts", status: 200, read: true },
      { label: "/v1/tickets", method: "GET", path: () => "/v1/tickets?limit=50", status: 200, read: true },
      {
        label: "/v1/tickets/{id}",
        method: "GET",
        path: () => `/v1/tickets/${ticket.id}`,
        status: 200,
        read: true,
      },
      {
        label: "/v1/tickets/{id}/messages",
        method: "GET",
        path: () => `/v1/tickets/${ticket.id}/messages`,
        status: 200,
        read: true,
      },
      { label: "/v1/emails", method: "GET", path: () => "/v1/emails?limit=50", status: 200, read: true },
      {
        label: "/v1/emails/{id}",
        method: "GET",
        path: () => `/v1/emails/${email.id}`,
        status: 200,
        read: true,
      },
      {
        label: "/v1/customers",
        method: "GET",
        path: () => "/v1/customers?limit=50",
        status: 200,
        read: true,
      },
      {
        label: "/v1/customers/{id}",
        method: "GET",
        path: () => `/v1/customers/${ticket.customer_id}`,
        status: 200,
        read: true,
      },
      {
        label: "/v1/tickets",
        method: "POST",
        path: () => "/v1/tickets",
        body: () => ({
          inbox_id: inbox.id,
          customer: { email: `global-${run}@example.com` },
          subject: "More",
        }),
        status: 201,
        read: false,
      },
      {
        label: "/v1/tickets/{id}",
        method: "PATCH",
        path: () => `/v1/tickets/${ticket.id}`,
        body: () => ({ priority: n++ % 2 === 0 ? "high" : "normal" }),
        status: 200,
        read: false,
      },
      {
        label: "/v1/tickets/{id}/messages (note)",
        method: "POST",
        path: () => `/v1/tickets/${ticket.id}/messages`,
        body: () => ({ type: "note", body_text: "A note" }),
        status: 201,
        read: false,
      },
      {
        label: "/v1/emails",
        method: "POST",
        path: () => "/v1/emails",
        body: () => ({
          from: `Bench <bench@${ctx.fromDomain}>`,
          to: "someone@example.com",
          subject: "Hi",
          text: "Hi",
        }),
        status: 200,
        read: false,
      },
      {
        label: "/v1/customers",
        method: "POST",
        path: () => "/v1/customers",
        body: () => ({ email: `global-${run}-${n++}@example.com` }),
        status: 201,
        read: false,
      },
    ];

    const figures = result.figures ?? [];
    await devCall(ctx, "PUT", "/_dev/d1-simulated-rtt", rtt);
    try {
      // A bookmark from a write: the reads below must see it, and the freshest is the hardest case.
      const bookmark = (await send(ctx, "PATCH", `/v1/tickets/${ticket.id}`, { body: { priority: "low" } }))
        .bookmark;
      if (!bookmark) throw new Error(`PATCH /v1/tickets/{id} answered no ${BOOKMARK_HEADER}`);

      for (const route of routes) {
        for (const withBookmark of route.read ? [false, true] : [false]) {
          const trips = await tripsOf(ctx, route, withBookmark ? bookmark : undefined);
          const label = `D1 round trips, ${route.method} ${route.label}${withBookmark ? " with bookmark" : ""}`;
          figures.push({ label: `${label}: primary`, value: trips.primary, unit: "" });
          figures.push({ label: `${label}: replica`, value: trips.replica, unit: "" });
          if (withBookmark) {
            result.goals.push({
              label: `primary D1 round trips, GET ${route.label} with bookmark`,
              value: trips.primary,
              target: "= 0",
              met: trips.primary === 0,
            });
          }
        }
      }

      const auth = { Authorization: `Bearer ${ctx.token}` };
      const loads = [
        ["GET /v1/tickets", `${ctx.baseUrl}/v1/tickets?limit=50`],
        ["GET /v1/tickets/{id}", `${ctx.baseUrl}/v1/tickets/${ticket.id}`],
      ].flatMap(([label, url]) => [
        { label: `${label}`, url: url as string, headers: auth },
        {
          label: `${label} with bookmark`,
          url: url as string,
          headers: { ...auth, [BOOKMARK_HEADER]: bookmark },
        },
      ]);
      for (const load of loads) await warmUp({ ...load, connections: CONNECTIONS }, 1);
      const measured = await interleaved(
        loads.map((load) => ({ ...load, seconds: ctx.seconds, connections: CONNECTIONS })),
      );
      result.measurements.push(...measured);
      for (const [plain, near] of [
        [measured[0], measured[1]],
        [measured[2], measured[3]],
      ] as [Measurement, Measurement][]) {
        figures.push({ label: `p50 ${plain.label}`, value: plain.p50, unit: "ms" });
        figures.push({ label: `p50 ${near.label}`, value: near.p50, unit: "ms" });
        result.goals.push(fasterGoal(plain, near));
      }
      figures.push({ label: "simulated RTT to the primary", value: rtt.primary_ms, unit: "ms" });
      figures.push({ label: "simulated RTT to a replica", value: rtt.replica_ms, unit: "ms" });
    } finally {
      await devCall(ctx, "PUT", "/_dev/d1-simulated-rtt", { primary_ms: 0, replica_ms: 0 });
    }
    return result;
  },
};

/** A read with a bookmark should be faster than the same read from the far primary. */
function fasterGoal(plain: Measurement, near: Measurement): Goal {
  const value = plain.p50 > 0 ? near.p50 / plain.p50 : 0;
  return {
    label: `p50 ${near.label} / without`,
    value,
    target: "< 1",
    met: value > 0 && value < 1,
  };
}
