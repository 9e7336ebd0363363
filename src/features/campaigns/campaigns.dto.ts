import { iso, isoOrNull } from "../../lib/time";
import type { CampaignRow } from "./campaigns.repo";

export function toCampaign(row: CampaignRow) {
  return {
    id: row.id,
    name: row.name,
    from: row.from,
    reply_to: row.replyTo,
    subject: row.subject,
    html: row.html,
    text: row.text,
    template: row.templateId
      ? {
          id: row.templateId,
          version_id: row.templateVersionId,
          variables: JSON.parse(row.templateVariables ?? "{}") as Record<string, string | number>,
        }
      : null,
    contact_group_ids: JSON.parse(row.contactGroupIds) as string[],
    status: row.status,
    paused_reason: row.pausedReason,
    scheduled_at: isoOrNull(row.scheduledAt),
    sent_at: isoOrNull(row.sentAt),
    stats: {
      recipients: row.recipientsCount,
      sent: row.sentCount,
      suppressed: row.suppressedCount,
      failed: row.failedCount,
      opened: row.openedCount,
      clicked: row.clickedCount,
      unsubscribed: row.unsubscribedCount,
      bounced: row.bouncedCount,
      missing_variables: row.missingVariablesCount,
    },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
