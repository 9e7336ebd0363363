import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

const BATCH_SIZE = 5_000;
const MAX_BATCHES_PER_RUN = 20;

/**
 * The event stream keeps what the request logs keep: events older than the account's
 * `request_log_retention` go, with their delivery records (foreign-key cascade). Events still
 * waiting for dispatch stay, so retention never drops an event before its one attempt.
 */
export async function pruneEvents(db: Db, now: number): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const result = await db.run(sql`
      DELETE FROM events WHERE rowid IN (
        SELECT e.rowid FROM accounts a
        JOIN events e ON e.account_id = a.id
          AND e.created_at < ${now} - a.request_log_retention_seconds * 1000
        WHERE e.dispatched_at IS NOT NULL
        LIMIT ${BATCH_SIZE})`);
    const changes = result.meta.changes ?? 0;
    deleted += changes;
    if (changes < BATCH_SIZE) break;
  }
  return deleted;
}
