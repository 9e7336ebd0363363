import type { AutomationStatus, EnrollmentStatus } from "../../db/schema";
import { Badge, Empty, Notice, PageHeader, Pager, Time } from "../../ui/components";
import type { AutomationView } from "./automation-reads";

const DONE: Record<string, string> = { deleted: "Automation deleted." };

const TONES: Record<AutomationStatus | EnrollmentStatus, "good" | "bad" | "warn" | "neutral"> = {
  draft: "neutral",
  active: "good",
  paused: "warn",
  completed: "good",
  failed: "bad",
  cancelled: "neutral",
};

export function StatusBadge(props: { status: AutomationStatus | EnrollmentStatus }) {
  return <Badge text={props.status} tone={TONES[props.status]} />;
}

export function AutomationListPage(props: {
  automations: Array<AutomationView & { active_enrollments: number }>;
  total: number;
  limit: number;
  offset: number;
  canManage: boolean;
  done: string | undefined;
}) {
  return (
    <>
      <PageHeader title="Automations">
        {props.canManage ? (
          <a class="button" href="/dashboard/automations/new">
            New automation
          </a>
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <section class="panel">
        {props.automations.length === 0 ? (
          <Empty text="No automations yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Trigger</th>
                <th>Steps</th>
                <th>Active enrolments</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {props.automations.map((automation) => (
                <tr>
                  <td>
                    <a href={`/dashboard/automations/${automation.id}`}>{automation.name}</a>
                  </td>
                  <td>
                    <StatusBadge status={automation.status} />
                  </td>
                  <td>
                    <code>{automation.trigger.type}</code>
                  </td>
                  <td>{automation.steps.length}</td>
                  <td>
                    <a href={`/dashboard/automations/${automation.id}/enrollments?status=active`}>
                      {automation.active_enrollments}
                    </a>
                  </td>
                  <td>
                    <Time at={automation.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/automations"
          query={{ limit: props.limit === 20 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
