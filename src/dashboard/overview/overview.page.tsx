import type { accountUsage } from "../../features/accounts/accounts.service";
import type { EventRow } from "../../features/event-stream/event-stream.repo";
import type { PeriodDays } from "../../ui/charts/period-switch";
import { Empty, formatBytes, PageHeader, Time } from "../../ui/components";
import { type EmailReport, OverviewCharts, type SupportReport } from "./overview-charts";

type Usage = Awaited<ReturnType<typeof accountUsage>>;

const QUOTA_LABELS: Record<keyof Usage["quotas"], string> = {
  emails_per_month: "Emails this month",
  emails_per_day: "Emails today",
  emails_per_hour: "Emails this hour",
  storage_bytes: "Storage",
  team_members: "Team members",
};

const amount = (quota: string, value: number) =>
  quota === "storage_bytes" ? formatBytes(value) : value.toLocaleString("en");

export function OverviewPage(props: {
  usage: Usage;
  events: EventRow[];
  charts: { days: PeriodDays; email: EmailReport; support: SupportReport };
}) {
  const { usage } = props;
  return (
    <>
      <PageHeader title="Overview" />
      <section class="panel">
        <h2>Usage on the {usage.plan} plan</h2>
        <dl class="quotas">
          {Object.entries(usage.quotas).map(([quota, q]) => (
            <div class="quota">
              <dt>{QUOTA_LABELS[quota as keyof Usage["quotas"]]}</dt>
              <dd>
                <meter
                  min={0}
                  max={q.limit ?? 1}
                  value={q.limit === null ? 0 : Math.min(q.current, q.limit)}
                  high={q.limit === null ? undefined : q.limit * 0.8}
                  aria-label={QUOTA_LABELS[quota as keyof Usage["quotas"]]}
                />
                <span>
                  {amount(quota, q.current)} of {q.limit === null ? "unlimited" : amount(quota, q.limit)}
                  {q.percentage === null ? "" : ` (${q.percentage}%)`}
                </span>
                {q.resets_at ? (
                  <small>
                    resets <Time at={q.resets_at} />
                  </small>
                ) : null}
              </dd>
            </div>
          ))}
        </dl>
        <p class="muted">
          {usage.limits.requests_per_minute === null
            ? "No API rate limit."
            : `API rate limit: ${usage.limits.requests_per_minute} requests per minute per key.`}
        </p>
      </section>
      <OverviewCharts {...props.charts} />
      <section class="panel">
        <h2>Recent activity</h2>
        {props.events.length === 0 ? (
          <Empty text="Nothing has happened yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Event</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {props.events.map((e) => (
                <tr>
                  <td>
                    <a href={`/dashboard/events/${e.id}`}>
                      <code>{e.event}</code>
                    </a>
                  </td>
                  <td>
                    <Time at={e.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>
          <a href="/dashboard/events">All events</a>
        </p>
      </section>
    </>
  );
}
