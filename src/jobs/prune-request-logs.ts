import type { LogsDb } from "../db/logs/client";
import {
  deleteExpiredRequestLogs,
  deleteLogsOfAccounts,
  deleteUnusedLogAgents,
  forgetLogAccounts,
  syncLogAccounts,
} from "../features/request-logs/log-retention.repo";
import type { Retentions } from "../features/request-logs/log-writes.repo";
import { pruneInBatches } from "./prune-in-batches";

/**
 * Deletes request logs older than each account's `request_log_retention`, and every log of an
 * account deleted from DB: the logs live in LOGS, where no cascade from DB reaches them. Then the
 * user agents no log names any more.
 */
export async function pruneRequestLogs(
  retentions: Retentions,
  logs: LogsDb,
  now = Date.now(),
): Promise<number> {
  const deletedAccounts = await syncLogAccounts(retentions, logs, now);
  let deleted = await pruneInBatches((batchSize) => deleteExpiredRequestLogs(logs, now, batchSize));
  if (deletedAccounts.length > 0) {
    deleted += await pruneInBatches((batchSize) => deleteLogsOfAccounts(logs, deletedAccounts, batchSize));
    await forgetLogAccounts(logs, deletedAccounts);
  }
  // After the logs: the agents only they named go in the same run.
  await pruneInBatches((batchSize) => deleteUnusedLogAgents(logs, now, batchSize));
  return deleted;
}
