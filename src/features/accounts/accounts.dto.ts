import { EMAIL_RETENTION_MAX_DAYS, emailRetentionDays } from "../../lib/email-retention";
import { iso } from "../../lib/time";
import type { AccountRow } from "./accounts.repo";

export function toAccount(row: AccountRow) {
  const { plan } = row;
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    status: row.status,
    ticket_prefix: row.ticketPrefix,
    request_log_retention: row.requestLogRetention,
    email_retention: `${emailRetentionDays(plan, row.emailRetentionDays)}d`,
    email_retention_max: `${EMAIL_RETENTION_MAX_DAYS[plan]}d`,
    default_track_opens: row.defaultTrackOpens,
    default_track_clicks: row.defaultTrackClicks,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
