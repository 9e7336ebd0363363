import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { ARCHIVE_RETENTION_DAYS, archivePartKey, DAY_MS } from "../../lib/email-retention";

/**
 * A `writing` part older than this belongs to a run that died between claiming it and archiving
 * it: far longer than a run lasts (a minute's budget), so no live run is still writing it.
 */
export const DEAD_CLAIM_MS = 10 * 60_000;
/** Parts per round: within R2's 1,000 keys per delete. */
const ROUND = 500;

interface PartKey {
  account_id: string;
  day: number;
  part: number;
  token: string;
  emails: number;
  bytes: number;
}

const keysOf = (parts: PartKey[]) => parts.map((p) => archivePartKey(p.account_id, p.day, p.part, p.token));

/**
 * Removes dead claims and whatever object their run wrote: nothing in them was ever archived
 * (their emails are still in the database, for a later part). Served by the partial index of
 * `writing` parts.
 */
export async function sweepDeadClaims(db: Db, files: R2Bucket, now: number): Promise<number> {
  const { results } = await db.$client
    .prepare(
      `SELECT account_id, day, part, token, emails, bytes FROM email_archive_parts
       WHERE state = 'writing' AND created_at < ? LIMIT ?`,
    )
    .bind(now - DEAD_CLAIM_MS, ROUND)
    .all<PartKey>();
  if (results.length === 0) return 0;
  await files.delete(keysOf(results));
  await db.run(sql`DELETE FROM email_archive_parts WHERE state = 'writing' AND (account_id, day, part, token) IN (
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(${JSON.stringify(
      results.map((p) => [p.account_id, p.day, p.part, p.token]),
    )}))`);
  return results.length;
}

/**
 * Deletes archived days older than the archive's retention (two years), object first: a part's
 * row outlives its object only when R2 failed, and the next run deletes both. Each part gives its
 * bytes back to its workspace's storage and leaves its day's totals; an emptied day goes.
 * Served by the parts' day index.
 */
export async function expireArchives(db: Db, files: R2Bucket, now: number): Promise<number> {
  const cutoffDay = Math.floor(now / DAY_MS) - ARCHIVE_RETENTION_DAYS;
  const { results } = await db.$client
    .prepare(
      `SELECT account_id, day, part, token, emails, bytes FROM email_archive_parts
       WHERE day < ? AND state = 'archived' LIMIT ?`,
    )
    .bind(cutoffDay, ROUND)
    .all<PartKey>();
  if (results.length === 0) return 0;
  await files.delete(keysOf(results));
  const gone = JSON.stringify(results.map((p) => [p.account_id, p.day, p.part, p.emails, p.bytes]));
  const each = sql`SELECT value ->> 0 AS account_id, value ->> 1 AS day, value ->> 2 AS part,
    value ->> 3 AS emails, value ->> 4 AS bytes FROM json_each(${gone})`;
  await runBatch(db, [
    sql`UPDATE account_usage SET storage_bytes = max(storage_bytes - (
        SELECT sum(g.bytes) FROM (${each}) g WHERE g.account_id = account_usage.account_id), 0)
      WHERE account_id IN (SELECT value ->> 0 FROM json_each(${gone}))`,
    sql`UPDATE email_archives SET
        parts = parts - (SELECT count(*) FROM (${each}) g WHERE g.account_id = email_archives.account_id AND g.day = email_archives.day),
        emails = emails - (SELECT sum(g.emails) FROM (${each}) g WHERE g.account_id = email_archives.account_id AND g.day = email_archives.day),
        bytes = bytes - (SELECT sum(g.bytes) FROM (${each}) g WHERE g.account_id = email_archives.account_id AND g.day = email_archives.day),
        updated_at = ${now}
      WHERE (account_id, day) IN (SELECT DISTINCT value ->> 0, value ->> 1 FROM json_each(${gone}))`,
    sql`DELETE FROM email_archives WHERE parts <= 0
      AND (account_id, day) IN (SELECT DISTINCT value ->> 0, value ->> 1 FROM json_each(${gone}))`,
    sql`DELETE FROM email_archive_parts WHERE (account_id, day, part) IN (
      SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${gone}))`,
  ]);
  return results.length;
}
