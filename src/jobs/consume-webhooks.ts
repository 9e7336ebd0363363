import { createDb } from "../db/client";
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
  const eventIds: string[] = [];
  for (const message of batch.messages) {
    const parsed = DispatchMessageSchema.safeParse(message.body);
    if (parsed.success) eventIds.push(parsed.data.eventId);
    else log.warn("webhooks.malformed_message", { message_id: message.id });
  }
  try {
    const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
    await dispatchEvents(createDb(env.DB), env, eventIds, Date.now(), launcherOf(ctx), fallback);
    batch.ackAll();
  } catch (error) {
    log.error("webhooks.claim_failed", { count: eventIds.length, ...describeError(error) });
    batch.retryAll({ delaySeconds: 10 });
  }
}
