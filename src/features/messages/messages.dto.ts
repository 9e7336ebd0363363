import { iso, isoOrNull } from "../../lib/time";
import type { AttachmentRow, MessageView } from "./messages.repo";

/** A reply's status follows its email: queued until sent, failed if it bounced or failed. */
function statusOf(view: MessageView): "draft" | "queued" | "sent" | "failed" | "received" {
  const { message, emailStatus } = view;
  if (message.isDraft) return "draft";
  if (!message.emailId || !emailStatus) return message.status;
  if (emailStatus === "sent" || emailStatus === "delivered") return "sent";
  if (emailStatus === "failed" || emailStatus === "bounced" || emailStatus === "cancelled") return "failed";
  return "queued";
}

export const toAttachment = (row: AttachmentRow) => ({
  id: row.id,
  filename: row.filename,
  content_type: row.contentType,
  size: row.size,
  content_id: row.contentId,
});

export function toMessage(view: MessageView, attachments: AttachmentRow[]) {
  const { message } = view;
  return {
    id: message.id,
    ticket_id: message.ticketId,
    type: message.type,
    direction: message.direction,
    author: { type: message.authorType, id: message.authorId },
    from: message.from,
    to: JSON.parse(message.to) as string[],
    cc: JSON.parse(message.cc) as string[],
    subject: message.subject,
    body_text: message.bodyText,
    body_html: message.bodyHtml,
    stripped_text: message.strippedText,
    auto_submitted: message.autoSubmitted,
    is_draft: message.isDraft,
    status: statusOf(view),
    attachments: attachments.filter((a) => a.messageId === message.id).map(toAttachment),
    email_id: message.emailId,
    email_message_id: message.emailMessageId,
    created_at: iso(message.createdAt),
    updated_at: iso(message.updatedAt),
    sent_at: isoOrNull(message.sentAt),
  };
}
