import { iso } from "../../lib/time";
import type { AccountRow } from "./accounts.repo";

export function toAccount(row: AccountRow) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    status: row.status,
    ticket_prefix: row.ticketPrefix,
    request_log_retention: row.requestLogRetention,
    default_track_opens: row.defaultTrackOpens,
    default_track_clicks: row.defaultTrackClicks,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
