import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { counterSum } from "../../db/counters";
import {
  type CampaignRecipientState,
  campaignRecipientCounts,
  campaignRecipients,
  campaigns,
} from "../../db/schema";
import { iso } from "../../lib/time";
import { campaignNotFound } from "./campaigns.service";

/**
 * The queries behind GET /v1/campaigns/{id}/recipients, exposed so tests can check their plans.
 * The page walks the primary key (campaign_id, customer_id), or the (campaign_id, state,
 * customer_id) index with a state, in customer id order: no sort, whatever the campaign's size.
 * The total sums the campaign's counter rows (at most six), never counting recipients.
 */
export function recipientListQueries(
  db: Db,
  accountId: string,
  campaignId: string,
  state: CampaignRecipientState | undefined,
  limit: number,
  offset: number,
) {
  // The counters carry no account id: the campaign's own row, of this workspace only, names them.
  const owned = db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, campaignId)));
  return {
    owned,
    page: db
      .select()
      .from(campaignRecipients)
      .where(
        and(
          eq(campaignRecipients.campaignId, campaignId),
          state ? eq(campaignRecipients.state, state) : undefined,
          eq(campaignRecipients.accountId, accountId),
        ),
      )
      .orderBy(asc(campaignRecipients.customerId))
      .limit(limit)
      .offset(offset),
    total: db
      .select({ total: counterSum(campaignRecipientCounts.count) })
      .from(campaignRecipientCounts)
      .where(
        and(
          inArray(campaignRecipientCounts.campaignId, owned),
          state ? eq(campaignRecipientCounts.state, state) : undefined,
        ),
      ),
  };
}

type RecipientRow = typeof campaignRecipients.$inferSelect;

function toRecipient(row: RecipientRow) {
  return {
    customer_id: row.customerId,
    email: row.email,
    state: row.state,
    email_id: row.emailId,
    detail: row.detail,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** A page of the campaign's recipients and their exact total, in one round trip; 404 for another workspace's. */
export async function listRecipients(
  db: Db,
  accountId: string,
  campaignId: string,
  state: CampaignRecipientState | undefined,
  limit: number,
  offset: number,
) {
  const queries = recipientListQueries(db, accountId, campaignId, state, limit, offset);
  const [owned, rows, totals] = await db.batch([queries.owned, queries.page, queries.total]);
  if (owned.length === 0) throw campaignNotFound(campaignId);
  return { recipients: rows.map(toRecipient), total: Number(totals[0]?.total ?? 0) };
}
