/** What a chart draws: one value (or none) per interval for each series, oldest interval first. */

/** How a series' numbers read: plain counts, shares (0.25 is 25%), durations in seconds, scores. */
export type ValueKind = "count" | "percent" | "seconds" | "score";

export interface ChartSeries {
  name: string;
  /** One per interval; null where there is nothing to draw (a rate over nothing delivered). */
  values: ReadonlyArray<number | null>;
}

export interface ChartData {
  /** The figure's caption, and the start of the SVG's accessible name. */
  title: string;
  /** Each interval's start as an ISO date-time (UTC), oldest first: the x axis. */
  starts: readonly string[];
  interval: "day" | "week";
  kind: ValueKind;
  series: readonly ChartSeries[];
  /** A fixed value axis (a rating's scale, NPS's −100 to 100); otherwise from 0 to the largest value. */
  domain?: readonly [number, number];
}

/** An interval's label: its UTC day, or the Monday its week starts. */
export const dayOf = (start: string) => start.slice(0, 10);

const trimmed = (n: number, digits: number) => String(Number(n.toFixed(digits)));

/** Seconds in the largest unit that keeps the number readable (42 s, 12.5 min, 3.2 h, 1.5 d). */
function duration(seconds: number): string {
  if (seconds < 60) return `${trimmed(seconds, 1)} s`;
  if (seconds < 3600) return `${trimmed(seconds / 60, 1)} min`;
  if (seconds < 86_400) return `${trimmed(seconds / 3600, 1)} h`;
  return `${trimmed(seconds / 86_400, 1)} d`;
}

/** A value as people read it; "no data" where there is none (never NaN or a misleading 0). */
export function formatValue(kind: ValueKind, value: number | null): string {
  if (value === null) return "no data";
  if (kind === "percent") return `${trimmed(value * 100, 2)}%`;
  if (kind === "seconds") return duration(value);
  if (kind === "count") return value.toLocaleString("en");
  return trimmed(value, 2);
}

/**
 * Nothing to draw: every value missing, or every count zero (nothing happened). A rate of 0% or
 * a score of 0 is a measure, and is drawn.
 */
export function isEmpty(data: ChartData): boolean {
  return data.series.every((s) => s.values.every((v) => v === null || (data.kind === "count" && v === 0)));
}
