import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { events } from "../../db/schema";

export type EventRow = typeof events.$inferSelect;

export interface EventFilter {
  accountId: string;
  event?: string | undefined;
  inboxId?: string | undefined;
}

/** A page of the event stream, newest first, and the filtered total. */
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
    total: db.select({ total: count() }).from(events).where(where),
  };
}
