/**
 * Latency as one person sees it: requests strictly one after the other, so a percentile is the
 * time of a request, not of a queue (autocannon's 20 connections wait on each other in the single
 * local workerd). Several targets are sampled in alternating slices, as `interleaved` does, so
 * what else the machine does falls on all of them alike. p50 and p95 are exact ranks of the samples.
 */
import { quantile } from "./api";
import type { Measurement } from "./types";

const CALL_TIMEOUT_MS = 30_000;
const WARM_UP = 10;

export interface SequentialTarget {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

export interface SequentialResult {
  measurement: Measurement;
  p95: number;
}

/** One request, its body read to the last byte; redirects are answers (a 303 to /login is a failure). */
async function once(target: SequentialTarget) {
  const started = performance.now();
  const response = await fetch(target.url, {
    headers: target.headers ?? {},
    redirect: "manual",
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

/**
 * WARM_UP unmeasured requests to each target, then `rounds` rounds in which each target is asked
 * for `seconds / rounds` seconds, one request at a time.
 */
export async function sequentialSlices(
  targets: SequentialTarget[],
  seconds: number,
  rounds = 5,
): Promise<SequentialResult[]> {
  for (const target of targets) for (let i = 0; i < WARM_UP; i++) await once(target).catch(() => undefined);
  const runs = targets.map(() => ({ ms: [] as number[], non2xx: 0, errors: 0, seconds: 0 }));
  const slice = (seconds * 1000) / rounds;
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const run = runs[i];
      if (!run) continue;
      const started = performance.now();
      while (performance.now() - started < slice) {
        try {
          const { ms, status } = await once(target);
          run.ms.push(ms);
          if (status !== 200) run.non2xx++;
        } catch {
          run.errors++;
        }
      }
      run.seconds += (performance.now() - started) / 1000;
    }
  }
  return targets.map((target, i) => {
    const run = runs[i] ?? { ms: [], non2xx: 0, errors: 0, seconds: 0 };
    const sorted = [...run.ms].sort((a, b) => a - b);
    return {
      measurement: {
        label: target.label,
        rps: run.seconds > 0 ? run.ms.length / run.seconds : 0,
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        non2xx: run.non2xx,
        errors: run.errors,
        total: run.ms.length + run.errors,
      },
      p95: quantile(sorted, 0.95),
    };
  });
}
