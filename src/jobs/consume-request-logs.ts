import { createDb } from "../db/client";
import { createLogsDb } from "../db/logs/client";
import { insertRequestLogs } from "../features/request-logs/log-writes.repo";
import {
  type RequestLogMessage,
  RequestLogMessageSchema,
} from "../features/request-logs/request-logs.schemas";
import { describeError, log } from "../lib/logger";

/**
 * Inserts a batch of request logs into LOGS (one D1 batch; DB only says which accounts exist). A
 * malformed message is acknowledged and logged (retrying cannot fix it); if the insert fails,
 * every valid message is retried.
 */
export async function consumeRequestLogs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const valid: Array<{ message: Message<unknown>; log: RequestLogMessage }> = [];
  for (const message of batch.messages) {
    const parsed = RequestLogMessageSchema.safeParse(message.body);
    if (parsed.success) valid.push({ message, log: parsed.data });
    else {
      log.warn("request_log.malformed_message", { message_id: message.id });
      message.ack();
    }
  }
  if (valid.length === 0) return;
  try {
    await insertRequestLogs(
      createDb(env.DB),
      createLogsDb(env.LOGS),
      valid.map((v) => v.log),
    );
    for (const v of valid) v.message.ack();
  } catch (error) {
    log.error("request_log.insert_failed", {
      count: valid.length,
      ...describeError(error),
    });
    for (const v of valid) v.message.retry({ delaySeconds: 5 });
  }
}
