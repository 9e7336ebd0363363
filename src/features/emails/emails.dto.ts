import type { RECIPIENT_STATES } from "../../db/schema";
import { iso, isoOrNull } from "../../lib/time";
import type { ShownEmail } from "./emails.repo";
import { messageIdOf } from "./message-id";
import { isSystemEmail } from "./system-mail";

export interface StoredAttachment {
  filename: string;
  content_type: string;
  content_id: string | null;
  size: number;
  key: string;
}

export function toEmailSummary(row: ShownEmail) {
  const attachments = JSON.parse(row.attachments) as StoredAttachment[];
  return {
    object: "email" as const,
    id: row.id,
    from: row.from,
    to: JSON.parse(row.to) as string[],
    cc: JSON.parse(row.cc) as string[],
    bcc: JSON.parse(row.bcc) as string[],
    reply_to: JSON.parse(row.replyTo) as string[],
    subject: row.subject,
    status: row.status,
    last_event: row.lastEvent,
    last_event_at: iso(row.lastEventAt),
    tags: JSON.parse(row.tags) as Array<{ name: string; value: string }>,
    attachments: attachments.map(({ key: _key, ...visible }) => visible),
    track_opens: row.trackOpens,
    track_clicks: row.trackClicks,
    template:
      row.templateId && row.templateVersionId
        ? {
            id: row.templateId,
            version_id: row.templateVersionId,
            layout:
              row.templateLayoutId && row.templateLayoutVersionId
                ? { id: row.templateLayoutId, version_id: row.templateLayoutVersionId }
                : null,
          }
        : null,
    opens: {
      count: row.openCount,
      first_at: isoOrNull(row.firstOpenedAt),
      last_at: isoOrNull(row.lastOpenedAt),
    },
    clicks: {
      count: row.clickCount,
      first_at: isoOrNull(row.firstClickedAt),
      last_at: isoOrNull(row.lastClickedAt),
    },
    message_id: messageIdOf(row),
    size: row.size,
    attempts: row.attempts,
    last_response: row.lastResponse,
    scheduled_at: isoOrNull(row.scheduledAt),
    sent_at: isoOrNull(row.sentAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export interface RecipientView {
  address: string;
  state: (typeof RECIPIENT_STATES)[number];
  response: string | null;
}

/** The service's own mail carries sign-in and invitation links: no API key may read its body. */
export function toEmail(row: ShownEmail, recipients: RecipientView[]) {
  const redacted = isSystemEmail(row);
  return {
    ...toEmailSummary(row),
    html: redacted ? null : row.html,
    text: redacted ? null : row.text,
    headers: redacted ? {} : (JSON.parse(row.headers) as Record<string, string>),
    recipients: recipients.map((r) => ({ address: r.address, status: r.state, response: r.response })),
  };
}
