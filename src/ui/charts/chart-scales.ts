import { scaleLinear, scaleUtc } from "d3-scale";
import type { ChartData } from "./chart-data";

/** The SVG's own coordinates; it scales to the width of its panel (viewBox, width 100%). */
export const WIDTH = 720;
export const HEIGHT = 240;
// Room on the right for the last date label, centred on the last point.
export const MARGIN = { top: 12, right: 32, bottom: 28, left: 56 };

const DAY_MS = 86_400_000;

export interface Tick {
  at: number;
  label: string;
}

/** A duration axis in one unit, chosen from the largest value, so its ticks land on round numbers. */
function secondsUnit(max: number) {
  if (max < 120) return { size: 1, suffix: "s" };
  if (max < 7200) return { size: 60, suffix: "min" };
  if (max < 172_800) return { size: 3600, suffix: "h" };
  return { size: 86_400, suffix: "d" };
}

function valueExtent(data: ChartData): [number, number] {
  if (data.domain) return [data.domain[0], data.domain[1]];
  const values = data.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const low = Math.min(0, ...values);
  // A period of 0% rates still needs an axis above its line.
  return [low, Math.max(low + (data.kind === "percent" ? 0.01 : 1), ...values)];
}

/** The value axis: d3's nice domain and ticks, labelled in the chart's kind of value. */
function valueScale(data: ChartData) {
  const [low, high] = valueExtent(data);
  if (data.kind === "seconds") {
    const unit = secondsUnit(high);
    const y = scaleLinear()
      .domain([low / unit.size, high / unit.size])
      .range([HEIGHT - MARGIN.bottom, MARGIN.top])
      .nice(5);
    const ticks = y.ticks(5).map((t) => ({ at: y(t), label: `${t} ${unit.suffix}` }));
    return { at: (v: number) => y(v / unit.size), ticks };
  }
  const y = scaleLinear()
    .domain([low, high])
    .range([HEIGHT - MARGIN.bottom, MARGIN.top])
    .nice(5);
  // Counts have no fractions: at most one tick per whole number.
  const count = data.kind === "count" ? Math.max(1, Math.min(5, Math.ceil(high - low))) : 5;
  const format = y.tickFormat(count, data.kind === "percent" ? "%" : undefined);
  const ticks = y
    .ticks(count)
    .filter((t) => data.kind !== "count" || Number.isInteger(t))
    .map((t) => ({ at: y(t), label: format(t) }));
  return { at: (v: number) => y(v), ticks };
}

/** The time axis from the first interval's start to the last one's, with d3's UTC date ticks. */
function timeScale(data: ChartData) {
  const first = Date.parse(data.starts[0] ?? "");
  const last = Date.parse(data.starts.at(-1) ?? "");
  // One interval alone still needs a span to sit in.
  const end = last > first ? last : first + (data.interval === "week" ? 7 : 1) * DAY_MS;
  const x = scaleUtc()
    .domain([new Date(first), new Date(end)])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  // d3's week ticks fall on Sundays; weeks here start on Monday, so a week chart marks its own
  // starts (every other one, or fewer, past six).
  const weekly = data.starts.map((start) => new Date(start));
  const every = Math.ceil(weekly.length / 6);
  const ticks = data.interval === "week" ? weekly.filter((_, i) => i % every === 0) : x.ticks(6);
  const format = x.tickFormat(6, "%b %-d");
  return {
    at: (start: string) => x(new Date(start)),
    ticks: ticks.map((t) => ({ at: x(t), label: format(t) })),
  };
}

export function chartScales(data: ChartData) {
  return { x: timeScale(data), y: valueScale(data) };
}
