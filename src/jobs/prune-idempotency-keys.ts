import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { IDEMPOTENCY_TTL_MS } from "../lib/idempotency";
import { pruneInBatches } from "./prune-in-batches";

/** Keys past their 24 hours, at most `limit`, oldest first through `idempotency_keys_created`. */
const expiredIdempotencyKeys = (now: number, limit: number): SQL =>
  sql`SELECT rowid FROM idempotency_keys WHERE created_at < ${now - IDEMPOTENCY_TTL_MS} LIMIT ${limit}`;

/** The statement of one batch: deletes at most `limit` of them. */
export const deleteExpiredIdempotencyKeys = (now: number, limit: number): SQL =>
  sql`DELETE FROM idempotency_keys WHERE rowid IN (${expiredIdempotencyKeys(now, limit)})`;

/**
 * Drops stored answers no retry can replay any more (a lookup drops its own expired key first,
 * lib/idempotency.ts), in bounded batches: after a day without the cron, a single DELETE of every
 * expired key would hold the database for as long as it takes.
 */
export function pruneIdempotencyKeys(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(deleteExpiredIdempotencyKeys(now, batchSize));
    return result.meta.changes ?? 0;
  });
}
