const BATCH_SIZE = 5_000;
/** Bounds one run; whatever is left goes in the next minute's run. */
const MAX_BATCHES_PER_RUN = 20;

/**
 * Runs a retention delete (`deleteBatch` removes at most `batchSize` expired rows and says how
 * many) until a batch comes back short, so one cron run never holds D1 for long.
 */
export async function pruneInBatches(deleteBatch: (batchSize: number) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const changes = await deleteBatch(BATCH_SIZE);
    deleted += changes;
    if (changes < BATCH_SIZE) break;
  }
  return deleted;
}
