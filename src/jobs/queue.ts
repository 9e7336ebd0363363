import { log } from "../lib/logger";
import { consumeEmails } from "./consume-emails";
import { consumeRequestLogs } from "./consume-request-logs";
import { consumeWebhookDispatch } from "./consume-webhooks";
import { QUEUE } from "./queues";

/** Routes each queue batch to its consumer. */
export async function handleQueue(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  switch (batch.queue) {
    case QUEUE.requestLogs:
      return consumeRequestLogs(batch, env);
    case QUEUE.emailSend:
      return consumeEmails(batch, env, ctx);
    case QUEUE.webhookDispatch:
      return consumeWebhookDispatch(batch, env, ctx);
    case QUEUE.deadLetters:
      // Messages that exhausted their retries: keep a trace for operators (ids only, no bodies).
      for (const message of batch.messages) {
        log.error("queue.dead_letter", { message_id: message.id, attempts: message.attempts });
        message.ack();
      }
      return;
    default:
      // A queue whose consumer is not deployed yet: retry, so its messages wait rather than vanish.
      log.error("queue.no_consumer", { queue: batch.queue, count: batch.messages.length });
      batch.retryAll({ delaySeconds: 60 });
  }
}
