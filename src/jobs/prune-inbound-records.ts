import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../db/client";

/** How long operators can look at mail that became no message, and at bounce and complaint reports. */
export const INBOUND_RECORD_RETENTION_MS = 30 * 86_400_000;
/** Rows per round, within R2's 1,000 keys per delete; a few rounds per run, the rest next minute. */
const ROUND = 500;
const MAX_ROUNDS = 10;

type RecordTable = "dropped_mail" | "mail_reports";

/**
 * One round: the oldest expired rows, their bytes removed from R2 first, then the rows. If R2
 * fails the rows stay and the next run tries again, so no bytes are ever left without a row.
 */
async function pruneRound(db: Db, files: R2Bucket, table: RecordTable, cutoff: number): Promise<number> {
  const { results } = await db.$client
    .prepare(`SELECT id, raw_key FROM ${table} WHERE created_at < ? ORDER BY created_at LIMIT ?`)
    .bind(cutoff, ROUND)
    .all<{ id: number; raw_key: string }>();
  if (results.length === 0) return 0;
  await files.delete(results.map((r) => r.raw_key));
  const ids = JSON.stringify(results.map((r) => r.id));
  await runBatch(db, [sql`DELETE FROM ${sql.raw(table)} WHERE id IN (SELECT value FROM json_each(${ids}))`]);
  return results.length;
}

/**
 * Deletes `dropped_mail` and `mail_reports` rows older than 30 days with the bytes they keep in
 * R2 (neither counts toward a workspace's storage). Served by each table's `created_at` index.
 */
export async function pruneInboundRecords(db: Db, files: R2Bucket, now = Date.now()): Promise<number> {
  const cutoff = now - INBOUND_RECORD_RETENTION_MS;
  let deleted = 0;
  for (const table of ["dropped_mail", "mail_reports"] as const) {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const count = await pruneRound(db, files, table, cutoff);
      deleted += count;
      if (count < ROUND) break;
    }
  }
  return deleted;
}
