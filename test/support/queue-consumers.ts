import { readWranglerToml } from "../../scripts/lib/wrangler";

/**
 * How long the Workers tests' local queues wait to fill a batch: a tenth of a second instead of
 * `wrangler.toml`'s one or two. A message sent alone was delivered only when that window closed,
 * so every hop through a queue (an email's send, a webhook's dispatch, a request log) made a test
 * wait about a second, most of the Workers files' waiting. Messages sent together within the
 * tenth of a second still arrive in one batch; the tests that need a batch of a given make-up
 * hand it to the consumer themselves (`createMessageBatch`).
 */
const TEST_BATCH_TIMEOUT_SECONDS = 0.1;

interface ConsumerConfig {
  queue: string;
  max_batch_size?: number;
  max_batch_timeout?: number;
  max_retries?: number;
  dead_letter_queue?: string;
  retry_delay?: number;
}

/**
 * Every queue consumer of `wrangler.toml` as Miniflare's `queueConsumers` option, each as the file
 * declares it (batch size, retries, dead-letter queue, retry delay) but for its batch window, at
 * most `TEST_BATCH_TIMEOUT_SECONDS`. Miniflare's option replaces the consumers it reads from
 * `wrangler.toml`, so every field is carried over, read from the file so they cannot drift.
 */
export function testQueueConsumers(configPath?: string) {
  const config = readWranglerToml<{ queues?: { consumers?: ConsumerConfig[] } }>(configPath);
  return Object.fromEntries(
    (config.queues?.consumers ?? []).map((c) => [
      c.queue,
      {
        ...(c.max_batch_size !== undefined ? { maxBatchSize: c.max_batch_size } : {}),
        maxBatchTimeout: Math.min(
          c.max_batch_timeout ?? TEST_BATCH_TIMEOUT_SECONDS,
          TEST_BATCH_TIMEOUT_SECONDS,
        ),
        ...(c.max_retries !== undefined ? { maxRetries: c.max_retries } : {}),
        ...(c.dead_letter_queue !== undefined ? { deadLetterQueue: c.dead_letter_queue } : {}),
        ...(c.retry_delay !== undefined ? { retryDelay: c.retry_delay } : {}),
      },
    ]),
  );
}
