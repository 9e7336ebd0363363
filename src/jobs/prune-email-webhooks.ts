import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { pruneInBatches } from "./prune-in-batches";

/** How long a delivered or abandoned email event, with its attempts, stays listed. */
export const EMAIL_WEBHOOK_RETENTION_MS = 30 * 86_400_000;

/**
 * Drops email-webhook outbox rows past retention that are over (succeeded or failed), with their
 * attempts (foreign-key cascade). Ids grow with time, so the oldest rows are the first ids: each
 * batch looks at that head of the table only, never scanning it to find nothing. A row still
 * pending there (retries end within 28 hours, so none should be) is stepped over, not waited on.
 */
export function pruneEmailWebhooks(db: Db, now: number): Promise<number> {
  return pruneInBatches(async (batchSize) => {
    const result = await db.run(sql`
      DELETE FROM email_webhook_outbox WHERE id IN (
        SELECT id FROM (SELECT id, created_at, state FROM email_webhook_outbox ORDER BY id LIMIT ${batchSize})
        WHERE created_at < ${now - EMAIL_WEBHOOK_RETENTION_MS} AND state IN ('succeeded', 'failed'))`);
    return result.meta.changes ?? 0;
  });
}
