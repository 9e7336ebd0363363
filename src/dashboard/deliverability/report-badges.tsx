import type { MAIL_REPORT_ACTIONS } from "../../db/schema";
import type { MailReportRow } from "../../features/mail-reports/mail-reports.repo";
import { Badge } from "../../ui/components";

const KIND_TONES = { bounce: "bad", complaint: "warn", unsupported: "neutral" } as const;
const ACTION_TONES = { suppressed: "bad", counted: "warn", ignored: "neutral" } as const;

export function ReportKind(props: { kind: MailReportRow["kind"] }) {
  return <Badge text={props.kind} tone={KIND_TONES[props.kind]} />;
}

/** What the service did about the report's recipient. */
export function ReportAction(props: { action: (typeof MAIL_REPORT_ACTIONS)[number] }) {
  return <Badge text={props.action} tone={ACTION_TONES[props.action]} />;
}

/** A bounce's severity (the row's `bounce_type`): hard or soft; none for complaints and the rest. */
export function Severity(props: { severity: MailReportRow["bounceType"] }) {
  if (props.severity === null) return <span class="muted">none</span>;
  return <Badge text={props.severity} tone={props.severity === "hard" ? "bad" : "warn"} />;
}
