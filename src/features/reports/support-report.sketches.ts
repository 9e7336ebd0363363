import { DDSketch } from "@datadog/sketches-js";

/**
 * DDSketch's guarantee: a quantile it returns is within 1% of the true value at that rank, for
 * any distribution, and sketches of days merge without losing it. Stated in the OpenAPI text.
 */
export const SKETCH_RELATIVE_ACCURACY = 0.01;

/**
 * The sketch's own `toProto()` needs protobufjs, which the package does not ship as a dependency
 * (and which is not installed), so a day's sketch is stored as its bins in JSON: `z` the count of
 * zero durations, `k` the first bin's key, `c` the counts of consecutive keys from `k`. Every
 * sketch here is built with one relative accuracy, so the mapping needs no storing.
 */
interface StoredSketch {
  z: number;
  k: number;
  c: number[];
}

export const emptySketch = () => new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });

export function sketchOf(seconds: readonly number[]): DDSketch {
  const sketch = emptySketch();
  for (const value of seconds) sketch.accept(value);
  return sketch;
}

export function encodeSketch(sketch: DDSketch): string {
  const store = sketch.store;
  const counts: number[] = [];
  for (let key = store.minKey; key <= store.maxKey; key++) counts.push(store.bins[key - store.offset] ?? 0);
  const stored: StoredSketch = {
    z: sketch.zeroCount,
    k: Number.isFinite(store.minKey) ? store.minKey : 0,
    c: counts,
  };
  return JSON.stringify(stored);
}

export function decodeSketch(text: string): DDSketch {
  const stored = JSON.parse(text) as StoredSketch;
  const sketch = emptySketch();
  stored.c.forEach((count, i) => {
    if (count > 0) sketch.store.add(stored.k + i, count);
  });
  sketch.zeroCount = stored.z;
  sketch.count = stored.z + sketch.store.count;
  return sketch;
}

/** The value at quantile `q` in seconds (to the millisecond); null when the sketch holds nothing. */
export function quantileSeconds(sketch: DDSketch, q: number): number | null {
  if (sketch.count === 0) return null;
  return Math.round(sketch.getValueAtQuantile(q) * 1000) / 1000;
}
