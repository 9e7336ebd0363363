import { iso } from "../../lib/time";
import type { DroppedMailRow } from "./dropped-mail.repo";

export function toDroppedMail(row: DroppedMailRow) {
  return {
    id: row.publicId,
    inbox_id: row.inboxId,
    reason: row.reason,
    detail: row.detail,
    mail_from: row.mailFrom,
    rcpt_to: row.rcptTo,
    message_id: row.messageId,
    size: row.rawSize,
    created_at: iso(row.createdAt),
  };
}
