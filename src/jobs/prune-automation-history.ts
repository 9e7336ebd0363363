import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { keptFromSql } from "../lib/email-retention";
import { pruneInBatches } from "./prune-in-batches";

/**
 * Finished enrolments (completed, failed, cancelled) whose end is older than the workspace's email
 * history, at most `limit`, through `enrollments_account_finished`. Why that long: the history's
 * steps name the emails they sent, which are gone (archived) by then, and it keeps the automation
 * history as long as the workspace chose to keep its mail (up to 30 to 400 days by plan). That is a
 * day at least, so nothing the loop bound counts (enrolments of the last 24 hours, finished or not)
 * ever goes. An active enrolment never goes, however old: its run reads its history to know which
 * steps it reached (engine/progress.ts).
 * `CROSS JOIN` keeps the workspaces the outer loop, as SQLite never reorders one: with a plain join
 * its planner, which has no statistics here, reads every row of the index to find each one's workspace.
 */
const expiredEnrollments = (now: number, limit: number): SQL => sql`
  SELECT e.rowid FROM accounts a
  CROSS JOIN automation_enrollments e ON e.account_id = a.id
    AND e.finished_at < ${keptFromSql(now)}
  WHERE e.status <> 'active'
  LIMIT ${limit}`;

/** The statement of one batch: deletes at most `limit` of them. */
export const deleteExpiredEnrollments = (now: number, limit: number): SQL =>
  sql`DELETE FROM automation_enrollments WHERE rowid IN (${expiredEnrollments(now, limit)})`;

/**
 * Deletes the automation history past retention: finished enrolments, with their steps (the
 * foreign key's cascade), in bounded batches. GET /v1/automations/{id}/enrollments and
 * GET /v1/enrollments/{id} stop showing them.
 */
export function pruneAutomationHistory(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(deleteExpiredEnrollments(now, batchSize));
    return result.meta.changes ?? 0;
  });
}
