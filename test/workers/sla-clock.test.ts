import { describe, expect, it } from "vitest";
import { addWorkingTime, type BusinessHours, workingTimeBetween } from "../../src/features/sla/business-time";

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Monday to Friday 09:00-17:00 in Paris, Christmas off. */
const office: BusinessHours = {
  timezone: "Europe/Paris",
  schedule: {
    mon: [["09:00", "17:00"]],
    tue: [["09:00", "17:00"]],
    wed: [["09:00", "17:00"]],
    thu: [["09:00", "17:00"]],
    fri: [["09:00", "17:00"]],
  },
  holidays: ["2026-12-25"],
};

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("the SLA clock", () => {
  it("counts every minute in calendar hours", () => {
    expect(iso(addWorkingTime(at("2026-11-27T16:00:00Z"), 90 * MIN, "calendar"))).toBe(
      "2026-11-27T17:30:00.000Z",
    );
    expect(workingTimeBetween(at("2026-11-27T16:00:00Z"), at("2026-11-28T16:00:00Z"), "calendar")).toBe(
      24 * HOUR,
    );
  });

  it("skips the weekend: Friday 16:00 plus 2 working hours is Monday 10:00 (Paris, UTC+1)", () => {
    // 2026-11-27 is a Friday; 16:00 Paris is 15:00Z.
    const due = addWorkingTime(at("2026-11-27T15:00:00Z"), 2 * HOUR, office);
    expect(iso(due)).toBe("2026-11-30T09:00:00.000Z");
    expect(workingTimeBetween(at("2026-11-27T15:00:00Z"), due, office)).toBe(2 * HOUR);
  });

  it("skips a holiday: Thursday 24 December 16:00 plus 2 hours is Monday 28 December 10:00", () => {
    const due = addWorkingTime(at("2026-12-24T15:00:00Z"), 2 * HOUR, office);
    expect(iso(due)).toBe("2026-12-28T09:00:00.000Z");
    expect(workingTimeBetween(at("2026-12-24T08:00:00Z"), at("2026-12-28T16:00:00Z"), office)).toBe(
      16 * HOUR,
    );
  });

  it("starts outside hours at the next opening: Saturday plus 30 minutes is Monday 09:30", () => {
    const due = addWorkingTime(at("2026-11-28T12:00:00Z"), 30 * MIN, office);
    expect(iso(due)).toBe("2026-11-30T08:30:00.000Z");
    // Before opening on a weekday, too.
    expect(iso(addWorkingTime(at("2026-11-30T05:00:00Z"), 0, office))).toBe("2026-11-30T08:00:00.000Z");
    expect(iso(addWorkingTime(at("2026-11-30T05:00:00Z"), MIN, office))).toBe("2026-11-30T08:01:00.000Z");
    expect(workingTimeBetween(at("2026-11-28T00:00:00Z"), at("2026-11-29T23:00:00Z"), office)).toBe(0);
  });

  it("keeps wall times across a DST change (Paris leaves summer time on 25 October 2026)", () => {
    // Friday 23 October 16:00 CEST (14:00Z) + 2 h: Monday 26 October 10:00 CET (09:00Z).
    const due = addWorkingTime(at("2026-10-23T14:00:00Z"), 2 * HOUR, office);
    expect(iso(due)).toBe("2026-10-26T09:00:00.000Z");
    // A calendar day that is 25 hours long counts all 25 with round-the-clock hours.
    const always: BusinessHours = {
      timezone: "Europe/Paris",
      schedule: { sun: [["00:00", "24:00"]] },
      holidays: [],
    };
    expect(workingTimeBetween(at("2026-10-24T00:00:00Z"), at("2026-10-27T00:00:00Z"), always)).toBe(
      25 * HOUR,
    );
    // And spring forward: 29 March 2026 is 23 hours long.
    expect(workingTimeBetween(at("2026-03-28T00:00:00Z"), at("2026-03-31T00:00:00Z"), always)).toBe(
      23 * HOUR,
    );
  });

  it("uses both intervals of a day with a lunch break", () => {
    const split: BusinessHours = {
      timezone: "America/New_York",
      schedule: {
        mon: [
          ["09:00", "12:00"],
          ["13:00", "17:00"],
        ],
      },
      holidays: [],
    };
    // Monday 30 November 2026 11:00 EST (16:00Z) + 2 h: 1 h before lunch, 1 h after: 14:00 EST.
    const due = addWorkingTime(at("2026-11-30T16:00:00Z"), 2 * HOUR, split);
    expect(iso(due)).toBe("2026-11-30T19:00:00.000Z");
    expect(workingTimeBetween(at("2026-11-30T14:00:00Z"), at("2026-11-30T23:00:00Z"), split)).toBe(7 * HOUR);
    // A week later when the Monday is used up.
    expect(iso(addWorkingTime(at("2026-11-30T16:00:00Z"), 7 * HOUR, split))).toBe("2026-12-07T16:00:00.000Z");
  });

  it("stays linear: a year of working time is found in well under a second", () => {
    const started = performance.now();
    const due = addWorkingTime(at("2026-01-05T08:00:00Z"), 52 * 40 * HOUR, office);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(workingTimeBetween(at("2026-01-05T08:00:00Z"), due, office)).toBe(52 * 40 * HOUR);
  });

  it("refuses to run forever on a schedule without working time", () => {
    expect(() => addWorkingTime(0, MIN, { timezone: "UTC", schedule: {}, holidays: [] })).toThrow(
      /no working time/,
    );
  });
});
