import { Badge, PageHeader } from "../../ui/components";
import { shown } from "./survey-list.page";
import { SCALE } from "./survey-numbers";
import { LatestResponses, WeeklyResults } from "./survey-results";
import type { findSurvey, ResponseRow, WeekResult } from "./surveys.queries";

type Survey = NonNullable<Awaited<ReturnType<typeof findSurvey>>>;

function Facts(props: { survey: Survey }) {
  const { survey } = props;
  const { min, max } = SCALE[survey.kind];
  return (
    <section class="panel">
      <dl class="facts">
        <dt>Question</dt>
        <dd>{survey.question}</dd>
        <dt>Kind</dt>
        <dd>
          {survey.kind.toUpperCase()} ({min}–{max})
        </dd>
        <dt>Status</dt>
        <dd>
          <Badge text={survey.status} tone={survey.status === "active" ? "good" : "neutral"} />
        </dd>
        <dt>Inboxes</dt>
        <dd>
          {survey.inboxes.length === 0
            ? "–"
            : survey.inboxes.map((inbox, i) => (
                <>
                  {i > 0 ? ", " : null}
                  <a href={`/dashboard/inboxes/${inbox.id}`}>{inbox.name}</a>
                </>
              ))}
        </dd>
        <dt>Responses</dt>
        <dd>{survey.summary.responses}</dd>
        <dt>Average</dt>
        <dd>{shown(survey.summary.average)}</dd>
        {survey.kind === "nps" ? (
          <>
            <dt>NPS</dt>
            <dd>{shown(survey.summary.nps)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export function SurveyPage(props: {
  survey: Survey;
  weeks: WeekResult[];
  responses: ResponseRow[];
  total: number;
  limit: number;
  offset: number;
}) {
  const { survey } = props;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/surveys">Surveys</a>
      </p>
      <PageHeader title={survey.name} />
      <Facts survey={survey} />
      <WeeklyResults kind={survey.kind} weeks={props.weeks} />
      <LatestResponses
        surveyId={survey.id}
        responses={props.responses}
        total={props.total}
        limit={props.limit}
        offset={props.offset}
      />
    </>
  );
}
