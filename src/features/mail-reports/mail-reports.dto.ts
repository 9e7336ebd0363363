import { iso } from "../../lib/time";
import type { MailReportRow } from "./mail-reports.repo";

export function toMailReport(row: MailReportRow) {
  return {
    id: row.publicId,
    kind: row.kind,
    email_id: row.emailId,
    recipient: row.recipient,
    severity: row.bounceType,
    status: row.statusCode,
    reply_code: row.replyCode,
    diagnostic: row.diagnostic,
    reporting_mta: row.reportingMta,
    action: row.action,
    created_at: iso(row.createdAt),
  };
}
