import type { Db } from "../db/client";
import { deleteExpiredSmtpLogs } from "../features/smtp-logs/smtp-logs.repo";

const BATCH_SIZE = 5_000;
/** Bounds one run; whatever is left goes in the next minute's run. */
const MAX_BATCHES_PER_RUN = 20;

/**
 * Deletes SMTP logs older than each account's `request_log_retention` (one retention setting for
 * both kinds of log), and rows of no account after a week.
 */
export async function pruneSmtpLogs(db: Db, now = Date.now()): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const changes = await deleteExpiredSmtpLogs(db, now, BATCH_SIZE);
    deleted += changes;
    if (changes < BATCH_SIZE) break;
  }
  return deleted;
}
