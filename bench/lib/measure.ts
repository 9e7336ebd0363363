import autocannon from "autocannon";
import type { Measurement } from "./types";

export interface Load {
  label: string;
  url: string;
  seconds: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  connections?: number;
  /** Runs after each of this load's slices in `interleaved`, outside the timed slice (e.g. drain a queue). */
  settle?: () => Promise<void>;
}

/** Above this share of failed requests the figures describe errors, not throughput. */
export const MAX_FAILURE_RATE = 0.01;

export const DEFAULT_CONNECTIONS = 20;

/** Drives one URL with autocannon for a fixed duration and keeps the figures the report needs. */
export async function measure(load: Load): Promise<Measurement> {
  const result = await autocannon({
    url: load.url,
    connections: load.connections ?? DEFAULT_CONNECTIONS,
    duration: load.seconds,
    method: load.method ?? "GET",
    headers: load.headers ?? {},
    ...(load.body === undefined ? {} : { body: load.body }),
  });
  return {
    label: load.label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

/** Runs the load briefly and discards the figures, so isolates, JIT and SQLite caches are hot. */
export async function warmUp(load: Omit<Load, "label" | "seconds">, seconds = 2): Promise<void> {
  await measure({ ...load, label: "warm-up", seconds });
}

/** Answers why a measurement cannot be trusted, or undefined when it can. */
export function invalidity(m: Measurement): string | undefined {
  if (m.total === 0) return `${m.label}: no response at all (${m.errors} connection errors)`;
  const failed = m.non2xx + m.errors;
  if (failed / m.total > MAX_FAILURE_RATE) {
    return `${m.label}: ${m.non2xx} non-2xx and ${m.errors} connection errors out of ${m.total} requests (limit ${MAX_FAILURE_RATE * 100}%)`;
  }
  return undefined;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Measures several loads in alternating slices (A B A B ...) instead of one after the other, so
 * that drift in what else the machine is doing falls on all of them alike and their ratio holds.
 * Requests per second are totals over the whole time; latencies are the median slice's.
 */
export async function interleaved(loads: Load[], rounds = 5): Promise<Measurement[]> {
  const slices = loads.map(() => [] as Measurement[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, load] of loads.entries()) {
      slices[i]?.push(await measure({ ...load, seconds: Math.max(1, load.seconds / rounds) }));
      await load.settle?.();
    }
  }
  return loads.map((load, i) => {
    const parts = slices[i] ?? [];
    const total = parts.reduce((sum, m) => sum + m.total, 0);
    return {
      label: load.label,
      rps: total / (parts.length * Math.max(1, load.seconds / rounds)),
      p50: median(parts.map((m) => m.p50)),
      p99: median(parts.map((m) => m.p99)),
      non2xx: parts.reduce((sum, m) => sum + m.non2xx, 0),
      errors: parts.reduce((sum, m) => sum + m.errors, 0),
      total,
    };
  });
}
