import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { campaigns, customers, type UnsubscribeMethod, unsubscribes } from "../../db/schema";
import { type AnnounceSince, runBatchAnnouncing } from "../email-webhooks/announce-batch";
import { unsubscribedEventStatement } from "../email-webhooks/fact-events";

/** The workspace of a customer, by its id alone: for a link that does not name its workspace. */
export async function accountOfCustomer(db: Db, customerId: string): Promise<string | null> {
  const rows = await db
    .select({ accountId: customers.accountId })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return rows[0]?.accountId ?? null;
}

/** The customer a token names, in the workspace the request entered for it. */
export async function findTokenCustomer(db: Db, accountId: string, customerId: string) {
  const rows = await db
    .select({
      id: customers.id,
      accountId: customers.accountId,
      email: customers.email,
      unsubscribed: customers.unsubscribed,
    })
    .from(customers)
    .where(and(eq(customers.accountId, accountId), eq(customers.id, customerId)))
    .limit(1);
  return rows[0] ?? null;
}

export interface LinkUnsubscribe {
  accountId: string;
  customerId: string;
  campaignId: string;
  method: Extract<UnsubscribeMethod, "one_click" | "link">;
  now: number;
}

/**
 * One D1 batch (one transaction, and D1 runs batches one at a time) that unsubscribes the customer
 * only if it is still subscribed. Every statement tests `unsubscribed = 0` and the customer's own
 * update runs last, so two concurrent posts record and count once, and an already unsubscribed
 * customer changes nothing (its `contact.unsubscribed` webhook event included). The campaign counts only when it is the customer's workspace's; the
 * record names it under the same condition.
 */
export function unsubscribeBatch(db: Db, u: LinkUnsubscribe, announce?: AnnounceSince) {
  const stillSubscribed = sql`EXISTS (SELECT 1 FROM ${customers} WHERE ${customers.id} = ${u.customerId} AND ${customers.accountId} = ${u.accountId} AND ${customers.unsubscribed} = 0)`;
  const ownCampaign = sql`(SELECT ${campaigns.id} FROM ${campaigns} WHERE ${campaigns.id} = ${u.campaignId} AND ${campaigns.accountId} = ${u.accountId})`;
  const record = sql`
    INSERT INTO ${unsubscribes} (customer_id, account_id, campaign_id, method, created_at)
    SELECT ${u.customerId}, ${u.accountId}, ${ownCampaign}, ${u.method}, ${u.now} WHERE ${stillSubscribed}
    ON CONFLICT DO NOTHING`;
  const counted = db
    .update(campaigns)
    .set({ unsubscribedCount: sql`${campaigns.unsubscribedCount} + 1` })
    .where(and(eq(campaigns.id, u.campaignId), eq(campaigns.accountId, u.accountId), stillSubscribed));
  const customer = db
    .update(customers)
    .set({ unsubscribed: true, unsubscribedAt: u.now, updatedAt: u.now })
    .where(
      and(
        eq(customers.id, u.customerId),
        eq(customers.accountId, u.accountId),
        eq(customers.unsubscribed, false),
      ),
    );
  return runBatchAnnouncing(
    db,
    () => [record, counted, unsubscribedEventStatement(u, stillSubscribed, u.now), customer],
    announce,
  );
}

/**
 * The page and total behind GET /v1/campaigns/unsubscribed, newest first, exposed so tests can
 * check their plans: both walk `unsubscribes_account_created`, the page finds customers by id.
 */
export function unsubscribedQueries(db: Db, accountId: string, limit: number, offset: number) {
  const page = db
    .select({
      customerId: unsubscribes.customerId,
      email: customers.email,
      campaignId: unsubscribes.campaignId,
      method: unsubscribes.method,
      createdAt: unsubscribes.createdAt,
    })
    .from(unsubscribes)
    .innerJoin(customers, eq(customers.id, unsubscribes.customerId))
    .where(eq(unsubscribes.accountId, accountId))
    .orderBy(desc(unsubscribes.createdAt), desc(unsubscribes.customerId))
    .limit(limit)
    .offset(offset);
  const total = db.select({ n: count() }).from(unsubscribes).where(eq(unsubscribes.accountId, accountId));
  return { page, total };
}

export async function listUnsubscribed(db: Db, accountId: string, limit: number, offset: number) {
  const { page, total } = unsubscribedQueries(db, accountId, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.n ?? 0 };
}
