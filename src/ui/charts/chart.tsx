import type { ChartData } from "./chart-data";
import { isEmpty } from "./chart-data";
import { ChartTable } from "./chart-table";
import { LineChart } from "./line-chart";

export type { ChartData, ChartSeries, ValueKind } from "./chart-data";

/** Which series is which colour: the same swatch classes as the lines. */
function Legend(props: { data: ChartData }) {
  return (
    <ul class="chart-legend">
      {props.data.series.map((s, i) => (
        <li>
          <span class={`chart-swatch series-${i}`} aria-hidden="true" />
          {s.name}
        </li>
      ))}
    </ul>
  );
}

/**
 * A chart as a figure: its caption, the SVG with a legend, and the same numbers as a table; an
 * empty period says so instead of drawing a flat line. `id` names it for links and tests.
 */
export function Chart(props: { id: string; data: ChartData }) {
  const { data } = props;
  const empty = isEmpty(data);
  return (
    <figure class="chart" id={props.id} data-empty={empty ? "1" : undefined}>
      <figcaption>{data.title}</figcaption>
      {empty ? (
        <p class="empty">No data for this period.</p>
      ) : (
        <>
          <LineChart data={data} />
          <Legend data={data} />
          <ChartTable data={data} />
        </>
      )}
    </figure>
  );
}
