import type { Db } from "../db/client";
import { deleteExpiredRequestLogs } from "../features/request-logs/request-logs.repo";

const BATCH_SIZE = 5_000;
/** Bounds one run; whatever is left goes in the next minute's run. */
const MAX_BATCHES_PER_RUN = 20;

/** Deletes request logs older than each account's `request_log_retention`. */
export async function pruneRequestLogs(db: Db, now = Date.now()): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const changes = await deleteExpiredRequestLogs(db, now, BATCH_SIZE);
    deleted += changes;
    if (changes < BATCH_SIZE) break;
  }
  return deleted;
}
