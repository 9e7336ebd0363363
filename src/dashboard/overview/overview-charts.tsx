import type { emailReport } from "../../features/reports/email-report.service";
import type { supportReport } from "../../features/reports/support-report.service";
import { Chart, type ChartData } from "../../ui/charts/chart";
import { type PeriodDays, PeriodSwitch } from "../../ui/charts/period-switch";

export type EmailReport = Awaited<ReturnType<typeof emailReport>>;
export type SupportReport = Awaited<ReturnType<typeof supportReport>>;

/** The counts people watch each morning, as GET /v1/reports/email gives them (bounces hard and soft together). */
export function emailChart(report: EmailReport): ChartData {
  const of = (pick: (d: EmailReport["data"][number]) => number) => report.data.map(pick);
  return {
    title: "Email",
    starts: report.data.map((d) => d.start),
    interval: report.interval,
    kind: "count",
    series: [
      { name: "Sent", values: of((d) => d.sent) },
      { name: "Delivered", values: of((d) => d.delivered) },
      { name: "Bounced", values: of((d) => d.bounced_hard + d.bounced_soft) },
      { name: "Complained", values: of((d) => d.complained) },
      { name: "Opened", values: of((d) => d.opened) },
      { name: "Clicked", values: of((d) => d.clicked) },
    ],
  };
}

export function ticketsChart(report: SupportReport): ChartData {
  return {
    title: "Tickets",
    starts: report.data.map((d) => d.start),
    interval: report.interval,
    kind: "count",
    series: [
      { name: "Created", values: report.data.map((d) => d.created) },
      { name: "Resolved", values: report.data.map((d) => d.resolved) },
    ],
  };
}

export function firstResponseChart(report: SupportReport): ChartData {
  return {
    title: "First response time",
    starts: report.data.map((d) => d.start),
    interval: report.interval,
    kind: "seconds",
    series: [{ name: "Median first response", values: report.data.map((d) => d.first_response_p50) }],
  };
}

const SLA_TARGET_LABELS = [
  ["first_response", "First response"],
  ["next_response", "Next response"],
  ["resolution", "Resolution"],
] as const;

/** SLA achievement per target over the period; nothing when no ticket ran under an SLA policy. */
export function SlaAchievement(props: { support: SupportReport }) {
  const { sla } = props.support.totals;
  if (SLA_TARGET_LABELS.every(([key]) => sla[key].achievement === null)) return null;
  return (
    <table id="sla-achievement">
      <caption>SLA achievement</caption>
      <thead>
        <tr>
          <th>Target</th>
          <th>Achieved</th>
          <th>Breached</th>
          <th>Achievement</th>
        </tr>
      </thead>
      <tbody>
        {SLA_TARGET_LABELS.map(([key, label]) => (
          <tr>
            <td>{label}</td>
            <td>{sla[key].achieved}</td>
            <td>{sla[key].breached}</td>
            <td>
              {sla[key].achievement === null ? "—" : `${Math.round(sla[key].achievement * 1000) / 10}%`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The Overview's charts over the chosen period, with the 7/30/90-day switch. */
export function OverviewCharts(props: { days: PeriodDays; email: EmailReport; support: SupportReport }) {
  const { email, support } = props;
  return (
    <section class="panel charts" id="reports" data-from={email.from} data-to={email.to}>
      <div class="chart-heading">
        <h2>Last {props.days} days (UTC)</h2>
        <PeriodSwitch path="/dashboard" days={props.days} />
      </div>
      <Chart id="email-chart" data={emailChart(email)} />
      <Chart id="tickets-chart" data={ticketsChart(support)} />
      <Chart id="first-response-chart" data={firstResponseChart(support)} />
      <SlaAchievement support={support} />
    </section>
  );
}
