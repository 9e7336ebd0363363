import { badRequest } from "../../lib/errors";
import { DAY_MS, utcDay } from "./email-rollups";

/** What both reports cut a period in: UTC days, or weeks starting Monday 00:00 UTC. */
export const REPORT_INTERVALS = ["day", "week"] as const;
export type Interval = (typeof REPORT_INTERVALS)[number];

/** A report's period in whole UTC days (`end` exclusive), cut in intervals of `step` days. */
export interface Period {
  startDay: number;
  endDay: number;
  step: number;
  interval: Interval;
}

export const MAX_INTERVALS = 366;
export const DEFAULT_DAYS = 30;
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

const invalid = (detail: string) => badRequest("invalid_report_period", "Invalid report period", detail);

/** Epoch day 0 was a Thursday: the Monday on or before `day`. */
export const mondayOf = (day: number) => day - ((((day + 3) % 7) + 7) % 7);

/** An ISO date or date-time, read as UTC when it names no zone; refuses what is no real date. */
function parseTime(name: "from" | "to", value: string): number {
  const hasZone = /(Z|[+-]\d{2}:\d{2})$/.test(value) && value.includes("T");
  const ms = ISO.test(value) ? Date.parse(value.includes("T") && !hasZone ? `${value}Z` : value) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March: a date must read back as written.
  if (Number.isNaN(ms) || (!value.includes("T") && new Date(ms).toISOString().slice(0, 10) !== value)) {
    throw invalid(`\`${name}\` must be an ISO 8601 date (2026-11-01) or date-time (2026-11-01T00:00:00Z).`);
  }
  return ms;
}

/**
 * `from` and `to` in epoch ms as `parse` reads them, with both reports' defaults: `to` the end of
 * today (UTC), `from` 30 days before `to`.
 */
export function periodBounds(
  query: { from?: string | undefined; to?: string | undefined },
  now: number,
  parse: (name: "from" | "to", text: string) => number,
) {
  const to = query.to === undefined ? (utcDay(now) + 1) * DAY_MS : parse("to", query.to);
  const from = query.from === undefined ? to - DEFAULT_DAYS * DAY_MS : parse("from", query.from);
  return { from, to };
}

/**
 * The period a report covers: `from` taken back to the start of its interval, `to` (exclusive)
 * forward to the end of its own; by default the 30 days up to the end of today (UTC).
 */
export function reportPeriod(
  query: { from?: string | undefined; to?: string | undefined; interval: Interval },
  now: number,
): Period {
  const step = query.interval === "week" ? 7 : 1;
  const align = (day: number) => (step === 7 ? mondayOf(day) : day);
  const { from, to } = periodBounds(query, now, parseTime);
  if (to <= from) throw invalid("`to` must be after `from`.");
  const toDay = Math.ceil(to / DAY_MS);
  const endDay = step === 7 ? mondayOf(toDay - 1) + 7 : toDay;
  const startDay = align(utcDay(from));
  const intervals = (endDay - startDay) / step;
  if (intervals > MAX_INTERVALS) {
    throw invalid(
      `The period holds ${intervals} intervals; at most ${MAX_INTERVALS} (use \`interval=week\` or a shorter period).`,
    );
  }
  return { startDay, endDay, step, interval: query.interval };
}

export const dayIso = (day: number) => new Date(day * DAY_MS).toISOString();
