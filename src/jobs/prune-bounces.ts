import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { SOFT_BOUNCE_WINDOW_MS } from "../features/suppressions/bounces";
import { keptFromSql } from "../lib/email-retention";
import { pruneInBatches } from "./prune-in-batches";

/**
 * Bounce and complaint rows older than the workspace's email history and than the soft-bounce
 * window, at most `limit`, through `bounces_account_created`. Why those bounds: a row is read by
 * the three-soft-bounces-in-7-days rule (by address, the last 7 days), and by the counters that
 * count an email's first bounce of each kind once (the report's rollups, campaign stats, email
 * webhooks), which only count while the email exists; a bounce is never older than its email, so
 * past the email history its email is gone, and a later report about it is unmatched. Suppressions
 * are another table and always stay.
 * `CROSS JOIN` keeps the workspaces the outer loop, as SQLite never reorders one: with a plain join
 * its planner, which has no statistics here, reads every row of the index to find each one's workspace.
 */
const expiredBounces = (now: number, limit: number): SQL => sql`
  SELECT b.id FROM accounts a
  CROSS JOIN bounces b ON b.account_id = a.id
    AND b.created_at < min(${keptFromSql(now)}, ${now - SOFT_BOUNCE_WINDOW_MS})
  LIMIT ${limit}`;

/** The statement of one batch: deletes at most `limit` of them. */
export const deleteExpiredBounces = (now: number, limit: number): SQL =>
  sql`DELETE FROM bounces WHERE id IN (${expiredBounces(now, limit)})`;

/** Deletes bounce rows past retention in bounded batches. */
export function pruneBounces(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(deleteExpiredBounces(now, batchSize));
    return result.meta.changes ?? 0;
  });
}
