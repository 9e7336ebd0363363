import { line } from "d3-shape";
import { type ChartData, dayOf, formatValue } from "./chart-data";
import { chartScales, HEIGHT, MARGIN, WIDTH } from "./chart-scales";

const tenths = (n: number) => Math.round(n * 10) / 10;

/** The SVG's accessible name: what it shows and over which days. */
export function chartLabel(data: ChartData): string {
  const names = data.series.map((s) => s.name).join(", ");
  const per = data.interval === "week" ? "per week" : "per day";
  return `${data.title}: ${names} ${per}, ${dayOf(data.starts[0] ?? "")} to ${dayOf(data.starts.at(-1) ?? "")} (UTC)`;
}

/**
 * The series as lines over the intervals, drawn on the server: no script, no inline style (the
 * colours come from app.css by series class). A missing value breaks its line and has no point.
 * Every point carries its interval and raw value as data attributes and a <title> (the native
 * tooltip), so what is drawn can be read back exactly.
 */
export function LineChart(props: { data: ChartData }) {
  const { data } = props;
  const { x, y } = chartScales(data);
  const label = chartLabel(data);
  // One decimal of the 720-wide viewBox is finer than a pixel: more only makes the page heavier.
  const path = line<{ start: string; value: number | null }>()
    .digits(1)
    .defined((p) => p.value !== null)
    .x((p) => x.at(p.start))
    .y((p) => y.at(p.value ?? 0));
  return (
    <svg
      class="chart-svg"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      preserveAspectRatio="xMidYMid meet"
    >
      <title>{label}</title>
      <g class="chart-axis chart-y">
        {y.ticks.map((tick) => (
          <g>
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={tenths(tick.at)} y2={tenths(tick.at)} />
            <text x={MARGIN.left - 6} y={tenths(tick.at)} text-anchor="end" dominant-baseline="middle">
              {tick.label}
            </text>
          </g>
        ))}
      </g>
      <g class="chart-axis chart-x">
        {x.ticks.map((tick) => (
          <text x={tenths(tick.at)} y={HEIGHT - MARGIN.bottom + 18} text-anchor="middle">
            {tick.label}
          </text>
        ))}
      </g>
      {data.series.map((series, i) => {
        const points = data.starts.map((start, j) => ({ start, value: series.values[j] ?? null }));
        return (
          <g class={`chart-series series-${i}`} data-series={series.name}>
            <path class="chart-line" d={path(points) ?? ""} fill="none" stroke-width="2" />
            {points.map((p) =>
              p.value === null ? null : (
                <circle
                  class="chart-point"
                  cx={tenths(x.at(p.start))}
                  cy={tenths(y.at(p.value))}
                  r="3"
                  data-start={p.start}
                  data-value={String(p.value)}
                >
                  <title>{`${series.name}, ${dayOf(p.start)}: ${formatValue(data.kind, p.value)}`}</title>
                </circle>
              ),
            )}
          </g>
        );
      })}
    </svg>
  );
}
