import { badRequest } from "../../lib/errors";
import { DAY_MS, utcDay } from "./email-rollups";
import { type Interval, MAX_INTERVALS, mondayOf, periodBounds } from "./report-period";

/*
 * The support report's reading of a period, on report-period.ts's shared rules (intervals,
 * defaults, the 366 limit, Monday weeks). Its own, as its API has always answered: bounds must be
 * UTC day boundaries, and weeks are clipped to `from`/`to` rather than widened to whole weeks.
 */

export interface ReportPeriod {
  from: number;
  to: number;
  interval: Interval;
}

export interface ReportBucket {
  start: number;
  end: number;
}

const startOfWeek = (ms: number) => mondayOf(utcDay(ms)) * DAY_MS;

const DAY_BOUND = /^(\d{4}-\d{2}-\d{2})(T00:00(:00(\.0{1,3})?)?Z)?$/;

/**
 * A bound given as `YYYY-MM-DD` or that day's 00:00 UTC as an ISO 8601 date-time. Rollups are
 * kept per UTC day, so a bound inside a day would be a promise the numbers cannot keep: it is
 * refused, not rounded; so is a day that does not exist (2026-02-30), which Date.parse would roll over.
 */
function dayBound(name: "from" | "to", text: string): number {
  const date = DAY_BOUND.exec(text)?.[1];
  const ms = date === undefined ? Number.NaN : Date.parse(`${date}T00:00:00Z`);
  if (date !== undefined && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(date)) return ms;
  if (!Number.isNaN(Date.parse(text)) && /T/.test(text))
    throw badRequest(
      "invalid_period",
      `\`${name}\` must be a UTC day boundary`,
      "Use YYYY-MM-DD or T00:00:00Z.",
    );
  throw badRequest("invalid_period", `\`${name}\` is not a date`, `Expected YYYY-MM-DD, got ${text}.`);
}

/**
 * from/to/interval of a report: `to` is exclusive; by default the 30 UTC days ending with today.
 * At most 366 intervals, and `from` before `to`, else a 400.
 */
export function reportPeriod(
  query: { from?: string; to?: string; interval?: Interval },
  now: number,
): ReportPeriod {
  const interval = query.interval ?? "day";
  const { from, to } = periodBounds(query, now, dayBound);
  if (from >= to) throw badRequest("invalid_period", "`from` must be before `to`");
  const period = { from, to, interval };
  if (reportBuckets(period).length > MAX_INTERVALS)
    throw badRequest(
      "invalid_period",
      `At most ${MAX_INTERVALS} intervals`,
      "Narrow from/to or use interval=week.",
    );
  return period;
}

/** The period's intervals, in order; weeks are calendar weeks (Monday first) clipped to from/to. */
export function reportBuckets({ from, to, interval }: ReportPeriod): ReportBucket[] {
  const buckets: ReportBucket[] = [];
  const limit = MAX_INTERVALS + 1;
  let start = from;
  while (start < to && buckets.length < limit) {
    const next = interval === "day" ? start + DAY_MS : startOfWeek(start) + 7 * DAY_MS;
    buckets.push({ start, end: Math.min(next, to) });
    start = next;
  }
  return buckets;
}
