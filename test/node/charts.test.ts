import { describe, expect, it } from "vitest";
import { Chart, type ChartData } from "../../src/ui/charts/chart";
import { periodBounds, periodDays } from "../../src/ui/charts/period-switch";

const DAY_MS = 86_400_000;
const starts = (n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 10, 1) + i * DAY_MS).toISOString());

const render = async (data: ChartData) => String(await Chart({ id: "c", data }).toString());

const points = (html: string) =>
  [...html.matchAll(/<circle [^>]*data-start="([^"]+)" data-value="([^"]+)"/g)].map((m) => [m[1], m[2]]);

describe("the charts", () => {
  it("draws a point per value with its raw number, none for a rate over nothing, and never NaN", async () => {
    const html = await render({
      title: "Bounce rate",
      starts: starts(4),
      interval: "day",
      kind: "percent",
      series: [{ name: "Bounce rate", values: [0.25, null, 0, 1 / 3] }],
    });
    const [a, , c, d] = starts(4);
    expect(points(html)).toEqual([
      [a, "0.25"],
      [c, "0"],
      [d, String(1 / 3)],
    ]);
    expect(html).not.toContain("NaN");
    expect(html).toContain(`<title>Bounce rate, 2026-11-04: 33.33%</title>`);
    // The SVG's name, its title, and the table with one row per interval.
    expect(html).toContain(
      'role="img" aria-label="Bounce rate: Bounce rate per day, 2026-11-01 to 2026-11-04 (UTC)"',
    );
    expect(html.match(/<tr data-start=/g)).toHaveLength(4);
    expect(html).toContain('<td class="num">no data</td>');
    // Percent ticks, and nothing the content security policy would refuse.
    expect(html).toMatch(/>0%<\/text>/);
    expect(html).not.toMatch(/\sstyle=|<script/);
  });

  it("labels a count axis with whole numbers only", async () => {
    const html = await render({
      title: "Tickets",
      starts: starts(3),
      interval: "day",
      kind: "count",
      series: [{ name: "Created", values: [0, 1, 0] }],
    });
    const ticks = [...html.matchAll(/dominant-baseline="middle">([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(["0", "1"]);
  });

  it("says No data when nothing happened, but draws rates of 0%", async () => {
    const counts = await render({
      title: "Email",
      starts: starts(7),
      interval: "day",
      kind: "count",
      series: [{ name: "Sent", values: [0, 0, 0, 0, 0, 0, 0] }],
    });
    expect(counts).toContain("No data for this period.");
    expect(counts).not.toContain("<svg");
    const nothing = await render({
      title: "Score",
      starts: starts(2),
      interval: "week",
      kind: "score",
      domain: [1, 5],
      series: [{ name: "Average rating", values: [null, null] }],
    });
    expect(nothing).toContain('data-empty="1"');
    const zeros = await render({
      title: "Complaint rate",
      starts: starts(2),
      interval: "day",
      kind: "percent",
      series: [{ name: "Complaint rate", values: [0, 0] }],
    });
    expect(points(zeros)).toHaveLength(2);
  });

  it("offers 7, 30 or 90 days, 30 for anything else, ending with today (UTC)", () => {
    expect([
      periodDays("7"),
      periodDays("90"),
      periodDays("5"),
      periodDays(undefined),
      periodDays("30.0"),
    ]).toEqual([7, 90, 30, 30, 30]);
    expect(periodBounds(7, Date.parse("2026-11-27T23:59:00Z"))).toEqual({
      from: "2026-11-21",
      to: "2026-11-28",
    });
  });
});
