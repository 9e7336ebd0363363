import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { pruneInBatches } from "./prune-in-batches";

/**
 * The event stream keeps what the request logs keep: events older than the account's
 * `request_log_retention` go, with their delivery records (foreign-key cascade). Events still
 * waiting for dispatch stay, so retention never drops an event before its one attempt.
 */
export function pruneEvents(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(deleteExpiredEvents(now, batchSize));
    return result.meta.changes ?? 0;
  });
}

/**
 * One batch: at most `limit` expired events, each workspace's a range of `events_account_created`.
 * `CROSS JOIN` keeps the workspaces the outer loop, as SQLite never reorders one: joined plainly,
 * its planner (which has no statistics) walks every event and looks its workspace up, reading the
 * whole table each minute.
 */
export const deleteExpiredEvents = (now: number, limit: number): SQL => sql`
  DELETE FROM events WHERE rowid IN (
    SELECT e.rowid FROM accounts a
    CROSS JOIN events e ON e.account_id = a.id
      AND e.created_at < ${now} - a.request_log_retention_seconds * 1000
    WHERE e.dispatched_at IS NOT NULL
    LIMIT ${limit})`;
