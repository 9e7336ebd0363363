/**
 * What an email costs the local server: D1 round trips (counted inside the Worker, read on GET
 * /_dev/d1-round-trips; src/db/counting-d1.ts) and workerd's CPU milliseconds (from /proc, as
 * `npm run profile` reports them), over a scenario's work, divided by the emails it handled.
 *
 * Honest totals: each window starts and ends only once the Worker has gone quiet (no D1 round trip
 * for QUIET_MS, longer than any queue's batch wait), so the queue consumers, the Workflow's steps
 * and the request logs of the work fall inside it, and nothing of earlier work does. A scenario may
 * open several windows (the email slices of email-send) and add them up. The bench's own polling
 * carries UNCOUNTED_HEADER and is not counted; its CPU is (a few requests a second, small).
 */
import { UNCOUNTED_HEADER } from "../../src/db/counting-d1";
import { groupCpuMs } from "./cpu-profile";
import { sleep } from "./process-group";
import type { BenchContext, Figure } from "./types";

/** Above the longest wait before work reaches D1: a request log's 0.5 s buffer and its queue's 2 s batch wait. */
const QUIET_MS = 3_500;
const POLL_MS = 250;
const QUIET_TIMEOUT_MS = 60_000;

export const UNCOUNTED = { [UNCOUNTED_HEADER]: "1" } as const;

interface RoundTrips {
  total: number;
  by_entry: Record<string, number>;
  /** What the round trips carried (src/db/counting-d1.ts). */
  statements: { total: number };
}

/** The Worker's counts, or undefined when it does not count (BENCH_URL, or counting off). */
async function readRoundTrips(ctx: BenchContext): Promise<RoundTrips | undefined> {
  const response = await fetch(`${ctx.baseUrl}/_dev/d1-round-trips`, {
    headers: UNCOUNTED,
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) throw new Error(`GET /_dev/d1-round-trips answered ${response.status}`);
  return (await response.json()) as RoundTrips;
}

/** Waits until no D1 round trip happened for QUIET_MS; answers the counts then. */
async function quietRoundTrips(ctx: BenchContext): Promise<RoundTrips | undefined> {
  let last = await readRoundTrips(ctx);
  if (!last) return undefined;
  const started = Date.now();
  let quietSince = Date.now();
  while (Date.now() - quietSince < QUIET_MS && Date.now() - started < QUIET_TIMEOUT_MS) {
    await sleep(POLL_MS);
    const now = await readRoundTrips(ctx);
    if (!now) return undefined;
    if (now.total !== last.total) quietSince = Date.now();
    last = now;
  }
  return last;
}

const workerdCpuMs = (ctx: BenchContext) => {
  if (!ctx.local) return undefined;
  const used = groupCpuMs(ctx.local.processGroup);
  return [...used].filter(([command]) => command.startsWith("workerd")).reduce((sum, [, ms]) => sum + ms, 0);
};

/** Per email (or inbound message): undefined where not measured (against BENCH_URL). */
export interface CostPerEmail {
  roundTrips: number | undefined;
  /** D1 statements run per email: locally each one's answer is its own JSON, whatever the batch. */
  statements: number | undefined;
  cpuMs: number | undefined;
  /** Round trips per email by entry point (fetch, queue, workflow...), those with any. */
  byEntry: Record<string, number>;
}

export class WorkCost {
  private roundTrips: RoundTrips | undefined;
  private cpuMs = 0;
  private open: { trips: RoundTrips | undefined; cpu: number | undefined } | undefined;
  private counted = true;
  private measuredCpu = true;

  constructor(private readonly ctx: BenchContext) {}

  /** Opens a window once the Worker is quiet. */
  async start(): Promise<void> {
    const trips = await quietRoundTrips(this.ctx);
    this.open = { trips, cpu: workerdCpuMs(this.ctx) };
  }

  /** Closes the window once the Worker is quiet again (its queues drained) and adds it up. */
  async stop(): Promise<void> {
    if (!this.open) throw new Error("WorkCost.stop without start");
    const trips = await quietRoundTrips(this.ctx);
    const cpu = workerdCpuMs(this.ctx);
    const { trips: before, cpu: cpuBefore } = this.open;
    this.open = undefined;
    if (trips && before) {
      const byEntry = { ...this.roundTrips?.by_entry };
      for (const [entry, n] of Object.entries(trips.by_entry))
        byEntry[entry] = (byEntry[entry] ?? 0) + n - (before.by_entry[entry] ?? 0);
      this.roundTrips = {
        total: (this.roundTrips?.total ?? 0) + trips.total - before.total,
        by_entry: byEntry,
        statements: {
          total: (this.roundTrips?.statements.total ?? 0) + trips.statements.total - before.statements.total,
        },
      };
    } else this.counted = false;
    if (cpu !== undefined && cpuBefore !== undefined) this.cpuMs += cpu - cpuBefore;
    else this.measuredCpu = false;
  }

  perEmail(emails: number): CostPerEmail {
    const per = (n: number) => n / (emails || 1);
    const trips = this.counted ? this.roundTrips : undefined;
    return {
      roundTrips: trips && per(trips.total),
      statements: trips && per(trips.statements.total),
      cpuMs: this.measuredCpu && this.ctx.local ? per(this.cpuMs) : undefined,
      byEntry: Object.fromEntries(
        Object.entries(trips?.by_entry ?? {})
          .filter(([, n]) => n > 0)
          .map(([entry, n]) => [entry, per(n)]),
      ),
    };
  }

  /** The figures a scenario reports; `unit` names what was divided by ("email", "inbound message"). */
  figures(emails: number, unit = "email"): Figure[] {
    const cost = this.perEmail(emails);
    const figures: Figure[] = [];
    if (cost.roundTrips !== undefined) {
      figures.push({ label: `D1 round trips per ${unit}`, value: cost.roundTrips, unit: "" });
      for (const [entry, n] of Object.entries(cost.byEntry))
        figures.push({ label: `D1 round trips per ${unit}, from ${entry}`, value: n, unit: "" });
    }
    if (cost.statements !== undefined)
      figures.push({ label: `D1 statements per ${unit}`, value: cost.statements, unit: "" });
    if (cost.cpuMs !== undefined)
      figures.push({ label: `worker (workerd) CPU ms per ${unit}`, value: cost.cpuMs, unit: "ms" });
    return figures;
  }
}
