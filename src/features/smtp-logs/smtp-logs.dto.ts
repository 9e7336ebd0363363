import { iso } from "../../lib/time";
import type { SmtpLogRow } from "./smtp-logs.repo";
import type { SMTP_OUTCOMES } from "./smtp-logs.schemas";

export function toSmtpLog(row: SmtpLogRow) {
  return {
    id: row.id,
    session_id: row.sessionId,
    client_ip: row.clientIp,
    tls: row.tls,
    auth: row.auth,
    key_id: row.keyId,
    key_prefix: row.keyPrefix,
    mail_from: row.mailFrom,
    rcpt_to: JSON.parse(row.rcptTo) as string[],
    size: row.size,
    // Written only from SmtpLogRecord, whose schema allows nothing else.
    outcome: row.outcome as (typeof SMTP_OUTCOMES)[number],
    reply_code: row.replyCode,
    reply: row.reply,
    email_id: row.emailId,
    created_at: iso(row.createdAt),
  };
}
