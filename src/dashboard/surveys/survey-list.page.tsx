import type { Summary } from "../../features/surveys/survey-summary";
import { Badge, Empty, PageHeader, Pager, Time } from "../../ui/components";
import type { SurveyWithSummary } from "./surveys.queries";

/** An average or a score for people: a dash until there is one. */
export const shown = (value: number | null) => (value === null ? "–" : String(value));

export function SummaryCells(props: { summary: Summary }) {
  const { summary } = props;
  return (
    <>
      <td>{summary.responses}</td>
      <td>{shown(summary.average)}</td>
      <td>{shown(summary.nps)}</td>
    </>
  );
}

export function SurveyListPage(props: {
  surveys: SurveyWithSummary[];
  total: number;
  limit: number;
  offset: number;
}) {
  return (
    <>
      <PageHeader title="Surveys" />
      <p class="muted">Surveys are created and edited through the API (/v1/surveys).</p>
      <section class="panel">
        {props.surveys.length === 0 ? (
          <Empty text="No surveys here yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Status</th>
                <th>Responses</th>
                <th>Average</th>
                <th>NPS</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {props.surveys.map((survey) => (
                <tr>
                  <td>
                    <a href={`/dashboard/surveys/${survey.id}`}>{survey.name}</a>
                  </td>
                  <td>{survey.kind.toUpperCase()}</td>
                  <td>
                    <Badge text={survey.status} tone={survey.status === "active" ? "good" : "neutral"} />
                  </td>
                  <SummaryCells summary={survey.summary} />
                  <td>
                    <Time at={survey.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/surveys"
          query={{ limit: props.limit === 20 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
