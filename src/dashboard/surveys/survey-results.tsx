import type { SurveyKind } from "../../db/schema/surveys";
import { Empty, Pager, Time } from "../../ui/components";
import { ScoreChart } from "./score-chart";
import { shown } from "./survey-list.page";
import { SCALE } from "./survey-numbers";
import type { ResponseRow, WeekResult } from "./surveys.queries";

/**
 * A week's average as a bar on the survey's scale: a <meter>, drawn by the browser, since the
 * content security policy allows no inline style to size a bar. Its regions colour it: low below
 * the scale's lower third, good in its top fifth.
 */
function AverageBar(props: { kind: SurveyKind; average: number | null }) {
  if (props.average === null) return null;
  const { min, max } = SCALE[props.kind];
  const span = max - min;
  return (
    <meter
      class="rating-bar"
      min={min}
      max={max}
      low={min + span / 3}
      high={max - span / 5}
      optimum={max}
      value={props.average}
      aria-label={`Average ${props.average} of ${max}`}
    />
  );
}

export function WeeklyResults(props: { kind: SurveyKind; weeks: WeekResult[] }) {
  const isNps = props.kind === "nps";
  return (
    <section class="panel">
      <h2>Results by week</h2>
      <ScoreChart kind={props.kind} weeks={props.weeks} />
      <table class="survey-weeks">
        <thead>
          <tr>
            <th>Week of (UTC)</th>
            <th>Responses</th>
            <th>Average</th>
            {isNps ? <th>NPS</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.weeks.map((week) => (
            <tr>
              <td>{new Date(week.startsAt).toISOString().slice(0, 10)}</td>
              <td>{week.responses}</td>
              <td>
                <span class="rating-value">{shown(week.average)}</span>
                <AverageBar kind={props.kind} average={week.average} />
              </td>
              {isNps ? <td>{shown(week.nps)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const assigneeOf = (row: ResponseRow) =>
  row.assigneeId === null ? "Unassigned" : (row.assigneeName ?? row.assigneeEmail ?? row.assigneeId);

export function LatestResponses(props: {
  surveyId: string;
  responses: ResponseRow[];
  total: number;
  limit: number;
  offset: number;
}) {
  return (
    <section class="panel">
      <h2>Latest responses</h2>
      {props.responses.length === 0 ? (
        <Empty text="No responses yet." />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Rating</th>
              <th>Comment</th>
              <th>Ticket</th>
              <th>Assignee</th>
              <th>Received</th>
            </tr>
          </thead>
          <tbody>
            {props.responses.map((row) => (
              <tr>
                <td>{row.rating}</td>
                <td class="survey-comment">{row.comment ?? <span class="muted">–</span>}</td>
                <td>
                  <a href={`/dashboard/tickets/${row.ticketId}`}>{row.ticketSubject ?? row.ticketId}</a>
                </td>
                <td>{assigneeOf(row)}</td>
                <td>
                  <Time at={row.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        path={`/dashboard/surveys/${props.surveyId}`}
        query={{ limit: props.limit === 20 ? undefined : props.limit }}
        limit={props.limit}
        offset={props.offset}
        total={props.total}
      />
    </section>
  );
}
