import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customers, type UnsubscribeMethod, unsubscribes } from "../../db/schema";

export interface UnsubscribeHow {
  method: UnsubscribeMethod;
  campaignId: string | null;
}

/**
 * The statement that records how a customer of the workspace unsubscribed; it writes nothing for
 * another workspace's customer, nor when a record exists (the first way wins). Batch it with the
 * customer's `subscriptionColumns(true, now)` so that both change together.
 */
export function insertUnsubscribe(
  db: Db,
  accountId: string,
  customerId: string,
  how: UnsubscribeHow,
  now: number,
) {
  return db
    .insert(unsubscribes)
    .select(
      db
        .select({
          customerId: customers.id,
          accountId: customers.accountId,
          campaignId: sql<string | null>`${how.campaignId}`.as("campaign_id"),
          method: sql<UnsubscribeMethod>`${how.method}`.as("method"),
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(customers)
        .where(and(eq(customers.accountId, accountId), eq(customers.id, customerId))),
    )
    .onConflictDoNothing();
}

/** The statement that forgets a customer's unsubscribe, for a customer subscribed again. */
export function deleteUnsubscribe(db: Db, accountId: string, customerId: string) {
  return db
    .delete(unsubscribes)
    .where(and(eq(unsubscribes.accountId, accountId), eq(unsubscribes.customerId, customerId)));
}

/** The customer's columns for a subscription change; an unsubscribed customer keeps its first time. */
export function subscriptionColumns(unsubscribed: boolean, now: number) {
  return unsubscribed
    ? { unsubscribed: true, unsubscribedAt: sql<number>`coalesce(${customers.unsubscribedAt}, ${now})` }
    : { unsubscribed: false, unsubscribedAt: null };
}
