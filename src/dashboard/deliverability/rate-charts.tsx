import type { emailReport } from "../../features/reports/email-report.service";
import { Chart, type ChartData } from "../../ui/charts/chart";
import { formatValue } from "../../ui/charts/chart-data";

export type EmailReport = Awaited<ReturnType<typeof emailReport>>;

export const RATE_DAYS = 30;

const rateChart = (
  report: EmailReport,
  title: string,
  pick: "bounce_rate" | "complaint_rate",
): ChartData => ({
  title,
  starts: report.data.map((d) => d.start),
  interval: report.interval,
  kind: "percent",
  series: [{ name: title, values: report.data.map((d) => d[pick]) }],
});

/** The email report's bounce and complaint rates per UTC day, charted, with the period's totals. */
export function RateCharts(props: { report: EmailReport }) {
  const { report } = props;
  const { totals } = report;
  return (
    <section class="panel" id="rates" data-from={report.from} data-to={report.to}>
      <h2>Bounce and complaint rates, last {RATE_DAYS} days</h2>
      <p class="muted">
        Per UTC day, as the email report (GET /v1/reports/email) counts them, once per email: the bounce rate
        is the emails that bounced permanently over the emails sent or refused outright that day (soft bounces
        are delays, left out as mailbox providers do); the complaint rate is the emails a recipient reported
        as spam over the emails delivered that day. A day with nothing to divide by has no rate.
      </p>
      <dl class="facts rate-totals">
        <dt>Sent</dt>
        <dd>{totals.sent}</dd>
        <dt>Failed</dt>
        <dd>{totals.failed}</dd>
        <dt>Delivered</dt>
        <dd>{totals.delivered}</dd>
        <dt>Hard bounces</dt>
        <dd>{totals.bounced_hard}</dd>
        <dt>Soft bounces</dt>
        <dd>{totals.bounced_soft}</dd>
        <dt>Complaints</dt>
        <dd>{totals.complained}</dd>
        <dt>Bounce rate</dt>
        <dd>{formatValue("percent", totals.bounce_rate)}</dd>
        <dt>Complaint rate</dt>
        <dd>{formatValue("percent", totals.complaint_rate)}</dd>
      </dl>
      <Chart id="bounce-rate-chart" data={rateChart(report, "Bounce rate", "bounce_rate")} />
      <Chart id="complaint-rate-chart" data={rateChart(report, "Complaint rate", "complaint_rate")} />
    </section>
  );
}
