import { ActionButton, Badge, Empty, Notice, PageHeader, Time } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { StatusBadge } from "./automation-list.page";
import { type EnrollmentView, type HistoryEntry, stepLabel } from "./enrollment-reads";

const DONE: Record<string, string> = { cancelled: "Enrolment cancelled: it runs no further step." };

const STEP_TONES = { running: "neutral", succeeded: "good", failed: "bad", skipped: "warn" } as const;

/** A history row's detail (an email's id, a webhook's status and duration, a wait's end), as facts. */
function Detail(props: { detail: Record<string, unknown> }) {
  const entries = Object.entries(props.detail);
  if (entries.length === 0) return null;
  return (
    <dl class="facts compact">
      {entries.map(([name, value]) => (
        <>
          <dt>{name}</dt>
          <dd>
            {/_at$/.test(name) && (typeof value === "number" || typeof value === "string") ? (
              <Time at={value} />
            ) : (
              <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>
            )}
          </dd>
        </>
      ))}
    </dl>
  );
}

function HistoryRow(props: { entry: HistoryEntry; enrollment: EnrollmentView }) {
  const { entry } = props;
  return (
    <tr>
      <td>{stepLabel(props.enrollment.automation, entry.stepId, entry.stepType)}</td>
      <td>
        <Badge text={entry.status} tone={STEP_TONES[entry.status]} />
      </td>
      <td>
        <Time at={entry.startedAt} />
      </td>
      <td>{entry.finishedAt ? <Time at={entry.finishedAt} /> : "–"}</td>
      <td>
        {entry.error ? <p class="error-text">{entry.error}</p> : null}
        <Detail detail={entry.detail} />
      </td>
    </tr>
  );
}

export function EnrollmentPage(props: {
  enrollment: EnrollmentView;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
}) {
  const { enrollment } = props;
  const { automation } = enrollment;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/automations">Automations</a> ›{" "}
        <a href={`/dashboard/automations/${automation.id}`}>{automation.name}</a> ›{" "}
        <a href={`/dashboard/automations/${automation.id}/enrollments`}>Enrolments</a>
      </p>
      <PageHeader title={`Enrolment of ${enrollment.email ?? enrollment.customerId}`}>
        {props.canManage && enrollment.status === "active" ? (
          <ActionButton
            action={`/dashboard/enrollments/${enrollment.id}/cancel`}
            label="Cancel enrolment"
            csrfToken={props.csrfToken}
            confirm="Cancel this enrolment? It runs no further step."
            danger
          />
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={enrollment.status} />
          </dd>
          <dt>Customer</dt>
          <dd>
            {enrollment.customerName ? `${enrollment.customerName} ` : ""}
            <code>{enrollment.email ?? enrollment.customerId}</code>
          </dd>
          <dt>Trigger</dt>
          <dd>
            <code>{enrollment.triggerType}</code> <code class="muted">{enrollment.triggerData}</code>
          </dd>
          <dt>Current step</dt>
          <dd>{stepLabel(automation, enrollment.currentStep)}</dd>
          <dt>Next run</dt>
          <dd>{enrollment.nextRunAt ? <Time at={enrollment.nextRunAt} /> : "–"}</dd>
          <dt>Enrolled</dt>
          <dd>
            <Time at={enrollment.createdAt} />
          </dd>
          <dt>Finished</dt>
          <dd>{enrollment.finishedAt ? <Time at={enrollment.finishedAt} /> : "–"}</dd>
          {enrollment.note ? (
            <>
              <dt>Note</dt>
              <dd>{enrollment.note}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section class="panel">
        <h2>History</h2>
        {enrollment.history.length === 0 ? (
          <Empty text="No step reached yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Step</th>
                <th>Status</th>
                <th>Started</th>
                <th>Finished</th>
                <th>Result</th>
              </tr>
            </thead>
            <tbody>
              {enrollment.history.map((entry) => (
                <HistoryRow entry={entry} enrollment={enrollment} />
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
