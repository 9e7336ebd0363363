import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { counterSum } from "../../db/counters";
import { eventCounts, events, webhookDeliveries } from "../../db/schema";

export type EventRow = typeof events.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface EventFilter {
  accountId: string;
  event?: string | undefined;
  inboxId?: string | undefined;
}

/**
 * A page of the event stream, newest first, and the filtered total: the sum of the few counter
 * rows (per inbox and event name) the triggers keep, never a count of the events.
 */
export function eventQueries(db: Db, filter: EventFilter, limit: number, offset: number) {
  const where = and(
    eq(events.accountId, filter.accountId),
    filter.event ? eq(events.event, filter.event) : undefined,
    filter.inboxId ? eq(events.inboxId, filter.inboxId) : undefined,
  );
  return {
    page: db
      .select()
      .from(events)
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(limit)
      .offset(offset),
    total: db
      .select({ total: counterSum(eventCounts.count) })
      .from(eventCounts)
      .where(
        and(
          eq(eventCounts.accountId, filter.accountId),
          filter.event ? eq(eventCounts.event, filter.event) : undefined,
          filter.inboxId ? eq(eventCounts.inboxId, filter.inboxId) : undefined,
        ),
      ),
  };
}

/** The delivery records of a page of events, one indexed lookup for the whole page, in no order. */
export function deliveriesOf(db: Db, eventIds: string[]) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.eventId} IN (SELECT value FROM json_each(${JSON.stringify(eventIds)}))`);
}

export async function findEvent(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.id, id)))
    .limit(1);
  return rows[0] ?? null;
}
