import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { EMAIL_RETENTION_DAYS_SQL, keptFromSql } from "../lib/email-retention";
import { pruneInBatches } from "./prune-in-batches";

/** How long a delivered or abandoned email event, with its attempts, stays listed. */
export const EMAIL_WEBHOOK_RETENTION_MS = 30 * 86_400_000;

/** The oldest `size` rows over in `state`, by id: a range of `email_webhook_outbox_due`, whose finished rows sort by id. */
const headOf = (state: string, size: number, cutoff: number) =>
  sql`SELECT id FROM (SELECT id, created_at FROM email_webhook_outbox
        WHERE state = ${state} AND next_attempt_at IS NULL ORDER BY id LIMIT ${size})
      WHERE created_at < ${cutoff}`;

/**
 * Drops email-webhook outbox rows past retention that are over (succeeded or failed), with their
 * attempts (foreign-key cascade). Ids grow with time, so the oldest finished rows are the first
 * ids of each state: each batch looks at those heads only, never scanning the table to find
 * nothing, and never at rows still open, which a suspended workspace may hold for as long as it
 * stays suspended.
 */
export function pruneEmailWebhooks(db: Db, now: number): Promise<number> {
  const cutoff = now - EMAIL_WEBHOOK_RETENTION_MS;
  return pruneInBatches(async (batchSize) => {
    const half = Math.ceil(batchSize / 2);
    const result = await db.run(sql`
      DELETE FROM email_webhook_outbox WHERE id IN (
        ${headOf("succeeded", half, cutoff)} UNION ALL ${headOf("failed", half, cutoff)})`);
    return result.meta.changes ?? 0;
  });
}

/**
 * The deliveries of a workspace that keeps its email history less than the outbox's 30 days go
 * with that history: finished rows older than its retention's start (lib/email-retention.ts), with
 * their attempts. Each workspace's rows are a range of `email_webhook_outbox_account_finished`.
 */
export function pruneEmailWebhooksPastRetention(db: Db, now: number): Promise<number> {
  const days = Math.round(EMAIL_WEBHOOK_RETENTION_MS / 86_400_000);
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(sql`
      DELETE FROM email_webhook_outbox WHERE id IN (
        SELECT o.id FROM accounts a CROSS JOIN email_webhook_outbox o ON o.account_id = a.id
          AND o.next_attempt_at IS NULL AND o.created_at < ${keptFromSql(now)}
        WHERE ${EMAIL_RETENTION_DAYS_SQL} < ${days} LIMIT ${batchSize})`);
    return result.meta.changes ?? 0;
  });
}
