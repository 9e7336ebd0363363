import { MAIL_REPORT_KINDS } from "../../db/schema";
import type { DroppedMailRow } from "../../features/dropped-mail/dropped-mail.repo";
import type { MailReportKind, MailReportRow } from "../../features/mail-reports/mail-reports.repo";
import { Empty, FilterSelect, formatBytes, PageHeader, Pager, Time } from "../../ui/components";
import { FilterForm } from "../logs/log-components";
import { type EmailReport, RateCharts } from "./rate-charts";
import { ReportAction, ReportKind, Severity } from "./report-badges";

export const LIST = "/dashboard/deliverability";

export interface DeliverabilityFilters {
  kind?: MailReportKind | undefined;
  email_id?: string | undefined;
  recipient?: string | undefined;
  limit: number;
  offset: number;
  dropped_offset: number;
}

export const reportHref = (id: string) => `${LIST}/reports/${encodeURIComponent(id)}`;
export const droppedHref = (id: string) => `${LIST}/dropped/${encodeURIComponent(id)}`;

export function DeliverabilityPage(props: {
  rates: EmailReport;
  reports: { rows: MailReportRow[]; total: number };
  dropped: { rows: DroppedMailRow[]; total: number; pageSize: number };
  filters: DeliverabilityFilters;
}) {
  const { filters } = props;
  // Each list's pager keeps the other list's place and the filters.
  const query = {
    kind: filters.kind,
    email_id: filters.email_id,
    recipient: filters.recipient,
    limit: filters.limit === 20 ? undefined : filters.limit,
    offset: filters.offset || undefined,
    dropped_offset: filters.dropped_offset || undefined,
  };
  return (
    <>
      <PageHeader title="Deliverability" />
      <RateCharts report={props.rates} />
      <section class="panel" id="reports">
        <h2>Bounce and complaint reports</h2>
        <FilterForm action={LIST} active={Boolean(filters.kind || filters.email_id || filters.recipient)}>
          <FilterSelect label="Kind" name="kind" value={filters.kind} options={MAIL_REPORT_KINDS} />
          <label>
            Email id
            <input
              type="search"
              name="email_id"
              maxlength={64}
              value={filters.email_id}
              placeholder="eml_…"
            />
          </label>
          <label>
            Recipient
            <input
              type="search"
              name="recipient"
              maxlength={320}
              value={filters.recipient}
              placeholder="ada@example.com"
            />
          </label>
        </FilterForm>
        {props.reports.rows.length === 0 ? (
          <Empty
            text={
              filters.kind || filters.email_id || filters.recipient
                ? "No report matches these filters."
                : "No bounce or complaint report in the last 30 days."
            }
          />
        ) : (
          <ReportsTable rows={props.reports.rows} />
        )}
        <Pager
          path={LIST}
          query={query}
          limit={filters.limit}
          offset={filters.offset}
          total={props.reports.total}
        />
      </section>
      <section class="panel" id="dropped">
        <h2>Dropped inbound mail</h2>
        <p class="muted">Mail an inbox accepted that became no message, and why.</p>
        {props.dropped.rows.length === 0 ? (
          <Empty text="No dropped mail in the last 30 days." />
        ) : (
          <DroppedTable rows={props.dropped.rows} />
        )}
        <Pager
          path={LIST}
          query={query}
          limit={props.dropped.pageSize}
          offset={filters.dropped_offset}
          total={props.dropped.total}
          param="dropped_offset"
        />
      </section>
    </>
  );
}

const none = <span class="muted">none</span>;

/** Every field the API lists; the ids last, where a narrow screen scrolls to them. */
function ReportsTable(props: { rows: MailReportRow[] }) {
  return (
    <table class="logs reports">
      <thead>
        <tr>
          <th>Time</th>
          <th>Kind</th>
          <th>Recipient</th>
          <th>Severity</th>
          <th>Status</th>
          <th>Reply</th>
          <th>Action</th>
          <th>Diagnostic</th>
          <th>Email</th>
          <th>Server</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            <td class="nowrap">
              <a href={reportHref(row.publicId)}>
                <Time at={row.createdAt} />
              </a>
            </td>
            <td>
              <ReportKind kind={row.kind} />
            </td>
            <td class="address">{row.recipient ?? none}</td>
            <td>
              <Severity severity={row.bounceType} />
            </td>
            <td>{row.statusCode ? <code>{row.statusCode}</code> : none}</td>
            <td>{row.replyCode ? <code>{row.replyCode}</code> : none}</td>
            <td>
              <ReportAction action={row.action} />
            </td>
            <td class="reply">{row.diagnostic ?? none}</td>
            <td>{row.emailId ? <code>{row.emailId}</code> : none}</td>
            <td>{row.reportingMta ?? none}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DroppedTable(props: { rows: DroppedMailRow[] }) {
  return (
    <table class="logs dropped">
      <thead>
        <tr>
          <th>Time</th>
          <th>Reason</th>
          <th>Inbox</th>
          <th>From</th>
          <th>To</th>
          <th class="num">Size</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            <td class="nowrap">
              <a href={droppedHref(row.publicId)}>
                <Time at={row.createdAt} />
              </a>
            </td>
            <td>{row.reason.replaceAll("_", " ")}</td>
            <td>
              <code>{row.inboxId}</code>
            </td>
            <td class="address">{row.mailFrom || <span class="muted">empty (a bounce)</span>}</td>
            <td class="address">{row.rcptTo}</td>
            <td class="num nowrap">{formatBytes(row.rawSize)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
