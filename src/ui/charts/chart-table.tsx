import { type ChartData, dayOf, formatValue } from "./chart-data";

/**
 * The chart as a table: its text alternative, and what a browser without script or SVG still
 * shows. In a <details>, which opens without script too.
 */
export function ChartTable(props: { data: ChartData }) {
  const { data } = props;
  return (
    <details class="chart-table">
      <summary class="chart-table-toggle">Show as table</summary>
      <table>
        <caption>{data.title}</caption>
        <thead>
          <tr>
            <th scope="col">{data.interval === "week" ? "Week of (UTC)" : "Day (UTC)"}</th>
            {data.series.map((s) => (
              <th scope="col" class="num">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.starts.map((start, j) => (
            <tr data-start={start}>
              <th scope="row" class="nowrap">
                {dayOf(start)}
              </th>
              {data.series.map((s) => {
                const value = s.values[j] ?? null;
                return (
                  <td class="num" data-value={value === null ? undefined : String(value)}>
                    {formatValue(data.kind, value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
