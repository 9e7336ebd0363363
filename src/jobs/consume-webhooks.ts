import { createDb } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { homesOf, LEGACY_SHARD } from "../db/directory/workspaces";
import { envFor } from "../db/shards";
import { describeError, log } from "../lib/logger";
import { MOVING_RETRY_SECONDS } from "../lib/workspace-moving";
import { DispatchMessageSchema } from "../webhooks/announce";
import { dispatchEvents } from "../webhooks/dispatch";
import { launcherOf } from "../webhooks/webhook-sender";

/**
 * One claim for the whole batch, then each attempt is launched on its own: the messages are acked
 * as soon as their deliveries are claimed, since a delivery is attempted once whatever happens next.
 * Only a failed claim (D1 unreachable) retries the batch, and a retried claim skips what was taken.
 */
export async function consumeWebhookDispatch(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const messages = batch.messages.flatMap((message) => {
    const parsed = DispatchMessageSchema.safeParse(message.body);
    if (parsed.success) return [{ ...parsed.data, message }];
    log.warn("webhooks.malformed_message", { message_id: message.id });
    return [];
  });
  const eventIds = messages.map((m) => m.eventId);
  const retried = new Set<Message<unknown>>();
  try {
    // Each shard's events are claimed in that shard (the directory names the workspaces' shards).
    const accounts = messages.flatMap((m) => (m.accountId ? [m.accountId] : []));
    const homes = accounts.length > 0 ? await homesOf(directoryDb(env), accounts) : new Map();
    const byShard = new Map<string, string[]>();
    for (const { eventId, accountId, message } of messages) {
      const home = accountId ? homes.get(accountId) : undefined;
      // A workspace being moved takes no writes: its events are dispatched once the move is over.
      if (home?.frozen) {
        retried.add(message);
        message.retry({ delaySeconds: MOVING_RETRY_SECONDS });
        continue;
      }
      const shard = home?.shard || LEGACY_SHARD;
      byShard.set(shard, [...(byShard.get(shard) ?? []), eventId]);
    }
    const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
    await Promise.all(
      [...byShard].map(([shard, ids]) => {
        const scoped = envFor(env, shard);
        return dispatchEvents(createDb(scoped.DB), scoped, ids, Date.now(), launcherOf(ctx), fallback);
      }),
    );
    for (const message of batch.messages) if (!retried.has(message)) message.ack();
  } catch (error) {
    log.error("webhooks.claim_failed", { count: eventIds.length, ...describeError(error) });
    batch.retryAll({ delaySeconds: 10 });
  }
}
