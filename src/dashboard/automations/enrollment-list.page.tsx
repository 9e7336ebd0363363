import { ENROLLMENT_STATUSES, type EnrollmentStatus } from "../../db/schema";
import { Empty, FilterSelect, PageHeader, Pager, Time } from "../../ui/components";
import { StatusBadge } from "./automation-list.page";
import type { AutomationView, EnrollmentListItem } from "./automation-reads";
import { stepLabel } from "./enrollment-reads";

export function EnrollmentListPage(props: {
  automation: AutomationView;
  enrollments: EnrollmentListItem[];
  total: number;
  limit: number;
  offset: number;
  status?: EnrollmentStatus | undefined;
}) {
  const { automation } = props;
  const path = `/dashboard/automations/${automation.id}/enrollments`;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/automations">Automations</a> ›{" "}
        <a href={`/dashboard/automations/${automation.id}`}>{automation.name}</a>
      </p>
      <PageHeader title={`Enrolments: ${automation.name}`} />
      <form method="get" action={path} class="filters">
        <FilterSelect label="Status" name="status" value={props.status} options={ENROLLMENT_STATUSES} />
        <button type="submit">Filter</button>
      </form>
      <section class="panel">
        {props.enrollments.length === 0 ? (
          <Empty text="No enrolments here." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Enrolment</th>
                <th>Customer</th>
                <th>Status</th>
                <th>Current step</th>
                <th>Next run</th>
                <th>Enrolled</th>
              </tr>
            </thead>
            <tbody>
              {props.enrollments.map((enrollment) => (
                <tr>
                  <td>
                    <a href={`/dashboard/enrollments/${enrollment.id}`}>
                      <code>{enrollment.id}</code>
                    </a>
                  </td>
                  <td>{enrollment.email ?? enrollment.customerId}</td>
                  <td>
                    <StatusBadge status={enrollment.status} />
                  </td>
                  <td>{stepLabel(automation, enrollment.currentStep)}</td>
                  <td>{enrollment.nextRunAt ? <Time at={enrollment.nextRunAt} /> : "–"}</td>
                  <td>
                    <Time at={enrollment.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path={path}
          query={{ status: props.status, limit: props.limit === 20 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
