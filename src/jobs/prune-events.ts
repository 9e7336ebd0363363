import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { pruneInBatches } from "./prune-in-batches";

/**
 * The event stream keeps what the request logs keep: events older than the account's
 * `request_log_retention` go, with their delivery records (foreign-key cascade). Events still
 * waiting for dispatch stay, so retention never drops an event before its one attempt.
 */
export function pruneEvents(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(sql`
      DELETE FROM events WHERE rowid IN (
        SELECT e.rowid FROM accounts a
        JOIN events e ON e.account_id = a.id
          AND e.created_at < ${now} - a.request_log_retention_seconds * 1000
        WHERE e.dispatched_at IS NOT NULL
        LIMIT ${batchSize})`);
    return result.meta.changes ?? 0;
  });
}
