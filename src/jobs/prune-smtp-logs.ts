import type { Db } from "../db/client";
import { deleteExpiredSmtpLogs } from "../features/smtp-logs/smtp-logs.repo";
import { pruneInBatches } from "./prune-in-batches";

/**
 * Deletes SMTP logs older than each account's `request_log_retention` (one retention setting for
 * both kinds of log), and rows of no account after a week.
 */
export function pruneSmtpLogs(db: Db, now = Date.now()): Promise<number> {
  return pruneInBatches((batchSize) => deleteExpiredSmtpLogs(db, now, batchSize));
}
