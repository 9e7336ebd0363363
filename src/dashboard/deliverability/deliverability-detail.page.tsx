import type { DroppedMailRow } from "../../features/dropped-mail/dropped-mail.repo";
import type { MailReportRow } from "../../features/mail-reports/mail-reports.repo";
import { formatBytes, PageHeader, Time } from "../../ui/components";
import { BackLink, Fact } from "../logs/log-components";
import { droppedHref, LIST, reportHref } from "./deliverability.page";
import { type RawExcerpt, SHOWN_RAW_BYTES } from "./raw-message";
import { ReportAction, ReportKind, Severity } from "./report-badges";

/** One recipient as the report's `detail` JSON keeps it (src/inbound/reports/receive-report.ts). */
interface DetailRecipient {
  address?: string;
  action?: string;
  status?: string | null;
  diagnostic?: string | null;
  kind?: string | null;
  counted?: boolean;
  ignored?: string;
}

function recipientsOf(detail: string): DetailRecipient[] {
  try {
    const parsed: unknown = JSON.parse(detail);
    return Array.isArray(parsed) ? (parsed as DetailRecipient[]) : [];
  } catch {
    return [];
  }
}

export function MailReportPage(props: { report: MailReportRow; raw: RawExcerpt | null }) {
  const { report } = props;
  const recipients = recipientsOf(report.detail);
  return (
    <>
      <BackLink href={`${LIST}#reports`} text="Deliverability" />
      <PageHeader title="Mail report" />
      <section class="panel">
        <h2>
          <ReportKind kind={report.kind} /> <ReportAction action={report.action} />
        </h2>
        <dl class="facts">
          <Fact term="Id">
            <code>{report.publicId}</code>
          </Fact>
          <Fact term="Received">
            <Time at={report.createdAt} />
          </Fact>
          <Fact term="Recipient" empty={report.recipient === null}>
            {report.recipient}
          </Fact>
          <Fact term="Severity" empty={report.bounceType === null}>
            <Severity severity={report.bounceType} />
          </Fact>
          <Fact term="Status" empty={report.statusCode === null}>
            <code>{report.statusCode}</code>
          </Fact>
          <Fact term="Reply code" empty={report.replyCode === null}>
            <code>{report.replyCode}</code>
          </Fact>
          <Fact term="Diagnostic" empty={report.diagnostic === null}>
            {report.diagnostic}
          </Fact>
          <Fact term="Reporting server" empty={report.reportingMta === null}>
            {report.reportingMta}
          </Fact>
          <Fact term="Email" empty={report.emailId === null}>
            <code>{report.emailId}</code>
          </Fact>
          <Fact term="Outcome">{report.outcome}</Fact>
          <Fact term="Envelope from">{report.mailFrom || <span class="muted">empty (a bounce)</span>}</Fact>
          <Fact term="Envelope to">{report.rcptTo}</Fact>
          <Fact term="Message-ID" empty={report.messageId === null}>
            <code>{report.messageId}</code>
          </Fact>
          <Fact term="Size">{`${formatBytes(report.rawSize)} (${report.rawSize} bytes)`}</Fact>
        </dl>
      </section>
      {recipients.length > 0 ? <ReportRecipients recipients={recipients} /> : null}
      <RawMessage raw={props.raw} download={`${reportHref(report.publicId)}/raw`} />
    </>
  );
}

function ReportRecipients(props: { recipients: DetailRecipient[] }) {
  return (
    <section class="panel">
      <h2>Every recipient the report names</h2>
      <table class="logs">
        <thead>
          <tr>
            <th>Address</th>
            <th>Action</th>
            <th>Status</th>
            <th>Counted as</th>
            <th>Diagnostic</th>
          </tr>
        </thead>
        <tbody>
          {props.recipients.map((r) => (
            <tr>
              <td class="address">{r.address}</td>
              <td>{r.action}</td>
              <td>{r.status ? <code>{r.status}</code> : <span class="muted">none</span>}</td>
              <td>
                {r.counted ? (
                  r.kind
                ) : (
                  <span class="muted">{r.ignored ? `ignored: ${r.ignored}` : "nothing"}</span>
                )}
              </td>
              <td class="reply">{r.diagnostic}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function DroppedMailPage(props: { dropped: DroppedMailRow; raw: RawExcerpt | null }) {
  const { dropped } = props;
  return (
    <>
      <BackLink href={`${LIST}#dropped`} text="Deliverability" />
      <PageHeader title="Dropped mail" />
      <section class="panel">
        <h2>{dropped.reason.replaceAll("_", " ")}</h2>
        <dl class="facts">
          <Fact term="Id">
            <code>{dropped.publicId}</code>
          </Fact>
          <Fact term="Received">
            <Time at={dropped.createdAt} />
          </Fact>
          <Fact term="Reason">
            <code>{dropped.reason}</code>
          </Fact>
          <Fact term="Detail" empty={dropped.detail === null}>
            {dropped.detail}
          </Fact>
          <Fact term="Inbox">
            <code>{dropped.inboxId}</code>
          </Fact>
          <Fact term="From">{dropped.mailFrom || <span class="muted">empty (a bounce)</span>}</Fact>
          <Fact term="To">{dropped.rcptTo}</Fact>
          <Fact term="Message-ID" empty={dropped.messageId === null}>
            <code>{dropped.messageId}</code>
          </Fact>
          <Fact term="Size">{`${formatBytes(dropped.rawSize)} (${dropped.rawSize} bytes)`}</Fact>
        </dl>
      </section>
      <RawMessage raw={props.raw} download={`${droppedHref(dropped.publicId)}/raw`} />
    </>
  );
}

/** The message as text, escaped by JSX like any value: a hostile message shows, never runs. */
function RawMessage(props: { raw: RawExcerpt | null; download: string }) {
  const { raw } = props;
  return (
    <section class="panel">
      <h2>Raw message</h2>
      {raw === null ? (
        <p class="empty">The message's bytes are no longer kept.</p>
      ) : (
        <>
          <p class="muted">
            {raw.truncated
              ? `Showing the first ${formatBytes(SHOWN_RAW_BYTES)} of ${formatBytes(raw.size)}. `
              : null}
            <a href={props.download}>Download the whole message</a> (text, {formatBytes(raw.size)}).
          </p>
          <pre class="payload raw">{raw.text}</pre>
        </>
      )}
    </section>
  );
}
