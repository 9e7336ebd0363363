import { notFound } from "../../lib/errors";
import type { RequestContext } from "../../lib/request-context";
import { validationError } from "../../lib/router";
import { readEmailDaily } from "./email-report.repo";
import { EMAIL_COUNTERS, type EmailCounter } from "./email-rollups";
import { dayIso, type Interval, reportPeriod } from "./report-period";

export interface EmailReportQuery {
  from?: string | undefined;
  to?: string | undefined;
  interval: Interval;
  inbox_id?: string | undefined;
  tag?: string | undefined;
  template_id?: string | undefined;
  template_version_id?: string | undefined;
}

const COUNTS = EMAIL_COUNTERS;
type Counts = Record<EmailCounter, number>;

const zero = (): Counts => Object.fromEntries(COUNTS.map((name) => [name, 0])) as Counts;
const over = (n: number, total: number) => (total === 0 ? null : n / total);

/**
 * The bounce rate is permanent bounces over the emails the transport gave a verdict on (handed
 * over, or refused outright), as mailbox providers reckon a sender's reputation: soft bounces are
 * delays that may still deliver. The other rates are over what was delivered.
 */
function withRates(c: Counts) {
  return {
    ...c,
    bounce_rate: over(c.bounced_hard, c.sent + c.failed),
    complaint_rate: over(c.complained, c.delivered),
    open_rate: over(c.opened, c.delivered),
    click_rate: over(c.clicked, c.delivered),
  };
}

/**
 * The rollups' dimension a query reads: a tag, an inbox, a template, a template version, or the
 * whole workspace. Each email is counted once per dimension, not per pair of them, so two filters
 * together are refused rather than answered with one of the two.
 */
function dimensionOf(query: EmailReportQuery): string {
  const filters = (["tag", "inbox_id", "template_id", "template_version_id"] as const).filter(
    (name) => query[name],
  );
  if (filters.length > 1) {
    const message = `one filter at a time: ${filters.join(" and ")} cannot be combined`;
    throw validationError(
      filters.map((name) => ({ path: [name], message })),
      "query",
    );
  }
  if (query.template_id) return `p:${query.template_id}`;
  if (query.template_version_id) return `v:${query.template_version_id}`;
  if (query.tag) return `t:${query.tag.replace(":", "=")}`;
  if (query.inbox_id) return `i:${query.inbox_id}`;
  return "";
}

/** GET /v1/reports/email: the period's rollup rows summed per interval, with totals and rates. */
export async function emailReport(ctx: RequestContext, query: EmailReportQuery, now = Date.now()) {
  const period = reportPeriod(query, now);
  const { days, inboxFound } = await readEmailDaily(
    ctx.db,
    ctx.accountId,
    dimensionOf(query),
    period.startDay,
    period.endDay,
    query.inbox_id,
  );
  if (query.inbox_id && !inboxFound) throw notFound(`Inbox ${query.inbox_id}`);
  const buckets: Counts[] = [];
  for (let day = period.startDay; day < period.endDay; day += period.step) buckets.push(zero());
  const totals = zero();
  for (const row of days) {
    const bucket = buckets[Math.floor((row.day - period.startDay) / period.step)] as Counts;
    const counts: Counts = {
      accepted: row.accepted,
      sent: row.sent,
      delivered: row.delivered,
      bounced_hard: row.bouncedHard,
      bounced_soft: row.bouncedSoft,
      complained: row.complained,
      opened: row.opened,
      clicked: row.clicked,
      suppressed: row.suppressed,
      failed: row.failed,
    };
    for (const name of COUNTS) {
      bucket[name] += counts[name];
      totals[name] += counts[name];
    }
  }
  return {
    data: buckets.map((counts, i) => ({
      start: dayIso(period.startDay + i * period.step),
      end: dayIso(period.startDay + (i + 1) * period.step),
      ...withRates(counts),
    })),
    totals: withRates(totals),
    from: dayIso(period.startDay),
    to: dayIso(period.endDay),
    interval: period.interval,
  };
}
