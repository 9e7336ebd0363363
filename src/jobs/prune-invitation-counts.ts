import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { pruneInBatches } from "./prune-in-batches";

/**
 * How long a workspace's hourly count of invitation emails stays. Only the current hour's is read
 * (features/invitations/invitation-limits.ts); a day of them is enough to see why a workspace was
 * refused yesterday, and keeps the table to about a day of hours per workspace.
 */
export const INVITATION_COUNT_RETENTION_MS = 86_400_000;

/**
 * Counts of hours past retention, at most `limit`, by the (account_id, hour_start) primary key.
 * `CROSS JOIN` keeps the workspaces the outer loop, as SQLite never reorders one: with a plain join
 * its planner, which has no statistics here, reads every row of the index to find each one's workspace.
 */
const expiredInvitationCounts = (now: number, limit: number): SQL => sql`
  SELECT c.rowid FROM accounts a
  CROSS JOIN invitation_mail_counts c ON c.account_id = a.id
    AND c.hour_start < ${now - INVITATION_COUNT_RETENTION_MS}
  LIMIT ${limit}`;

/** The statement of one batch: deletes at most `limit` of them. */
export const deleteExpiredInvitationCounts = (now: number, limit: number): SQL =>
  sql`DELETE FROM invitation_mail_counts WHERE rowid IN (${expiredInvitationCounts(now, limit)})`;

/** Deletes hourly invitation counts past retention, in bounded batches. */
export function pruneInvitationCounts(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(deleteExpiredInvitationCounts(now, batchSize));
    return result.meta.changes ?? 0;
  });
}
