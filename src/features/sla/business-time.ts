import { DateTime } from "luxon";

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Working hours in a time zone: each weekday's ["HH:MM", "HH:MM"] intervals, and local holidays. */
export interface BusinessHours {
  timezone: string;
  schedule: Partial<Record<Weekday, Array<[string, string]>>>;
  /** Local dates ("YYYY-MM-DD") with no working time at all. */
  holidays: string[];
}

/** Calendar time counts every minute; business hours only the schedule's. */
export type Hours = "calendar" | BusinessHours;

/**
 * More local days than this crossed by one computation means a schedule without working time,
 * which a policy is refused for (policy-input.ts): ten years of days, never reached otherwise.
 */
const MAX_DAYS = 3_700;

/** A local wall time of `day` ("24:00" is the next day's start); luxon moves one a DST gap skips. */
function wallTime(day: DateTime, hhmm: string): number {
  const [hour = 0, minute = 0] = hhmm.split(":").map(Number);
  return (hour === 24 ? day.plus({ days: 1 }).startOf("day") : day.set({ hour, minute })).toMillis();
}

/** The working intervals of one local day, as instants (ms): none on a holiday. */
function intervalsOn(day: DateTime, hours: BusinessHours): Array<[number, number]> {
  if (hours.holidays.includes(day.toISODate() ?? "")) return [];
  const weekday = WEEKDAYS[day.weekday - 1] as Weekday;
  // Wall times, not offsets from midnight: a DST day's 09:00-17:00 is still those two wall times.
  return (hours.schedule[weekday] ?? []).map(([from, to]) => [wallTime(day, from), wallTime(day, to)]);
}

/** Every local day from the one holding `from`, its intervals; stops the caller past MAX_DAYS. */
function* daysFrom(from: number, hours: BusinessHours) {
  let day = DateTime.fromMillis(from, { zone: hours.timezone }).startOf("day");
  for (let crossed = 0; crossed < MAX_DAYS; crossed++) {
    yield { start: day.toMillis(), intervals: intervalsOn(day, hours) };
    day = day.plus({ days: 1 }).startOf("day");
  }
  throw new Error("SLA schedule has no working time within ten years");
}

/** The instant `ms` of working time after `from`: linear in the local days crossed. */
export function addWorkingTime(from: number, ms: number, hours: Hours): number {
  if (hours === "calendar") return from + ms;
  let left = Math.max(0, ms);
  for (const { intervals } of daysFrom(from, hours)) {
    for (const [start, end] of intervals) {
      const begin = Math.max(start, from);
      if (end <= begin) continue;
      if (left <= end - begin) return begin + left;
      left -= end - begin;
    }
  }
  throw new Error("unreachable");
}

/** Working time (ms) between two instants; 0 when `to` is not after `from`. */
export function workingTimeBetween(from: number, to: number, hours: Hours): number {
  if (to <= from) return 0;
  if (hours === "calendar") return to - from;
  let total = 0;
  for (const { start, intervals } of daysFrom(from, hours)) {
    if (start >= to) return total;
    for (const [begin, end] of intervals) total += Math.max(0, Math.min(end, to) - Math.max(begin, from));
  }
  return total;
}
