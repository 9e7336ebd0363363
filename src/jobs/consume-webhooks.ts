import { createDb } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { LEGACY_SHARD, shardsOf } from "../db/directory/workspaces";
import { envFor } from "../db/shards";
import { describeError, log } from "../lib/logger";
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
    if (parsed.success) return [parsed.data];
    log.warn("webhooks.malformed_message", { message_id: message.id });
    return [];
  });
  const eventIds = messages.map((m) => m.eventId);
  try {
    // Each shard's events are claimed in that shard (the directory names the workspaces' shards).
    const accounts = messages.flatMap((m) => (m.accountId ? [m.accountId] : []));
    const shards =
      accounts.length > 0 ? await shardsOf(directoryDb(env), accounts) : new Map<string, string>();
    const byShard = new Map<string, string[]>();
    for (const { eventId, accountId } of messages) {
      const shard = (accountId && shards.get(accountId)) || LEGACY_SHARD;
      byShard.set(shard, [...(byShard.get(shard) ?? []), eventId]);
    }
    const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
    await Promise.all(
      [...byShard].map(([shard, ids]) => {
        const scoped = envFor(env, shard);
        return dispatchEvents(createDb(scoped.DB), scoped, ids, Date.now(), launcherOf(ctx), fallback);
      }),
    );
    batch.ackAll();
  } catch (error) {
    log.error("webhooks.claim_failed", { count: eventIds.length, ...describeError(error) });
    batch.retryAll({ delaySeconds: 10 });
  }
}
