import type { Db } from "../db/client";
import { deleteExpiredRequestLogs } from "../features/request-logs/request-logs.repo";
import { pruneInBatches } from "./prune-in-batches";

/** Deletes request logs older than each account's `request_log_retention`. */
export function pruneRequestLogs(db: Db, now = Date.now()): Promise<number> {
  return pruneInBatches((batchSize) => deleteExpiredRequestLogs(db, now, batchSize));
}
