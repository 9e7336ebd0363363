import { createDb } from "../db/client";
import { createLogsDb } from "../db/logs/client";
import { everyShard } from "../db/shards";
import { insertRequestLogs, retentionsIn } from "../features/request-logs/log-writes.repo";
import {
  type RequestLogMessage,
  RequestLogMessageSchema,
} from "../features/request-logs/request-logs.schemas";
import { describeError, log } from "../lib/logger";

/**
 * Inserts a batch of request logs into LOGS (one D1 batch; DB only says which accounts exist). A
 * message carries one flush's records (`{ logs }`, log-buffer.ts) or, in the form before, one
 * record. A malformed record is dropped and counted (retrying cannot fix it), its message's good
 * records kept; if the insert fails, every message with a good record is retried.
 */
export async function consumeRequestLogs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const kept: Array<Message<unknown>> = [];
  const logs: RequestLogMessage[] = [];
  for (const message of batch.messages) {
    const entries = entriesOf(message.body);
    const valid = entries.flatMap((entry) => {
      const parsed = RequestLogMessageSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
    if (valid.length < entries.length || entries.length === 0) {
      log.warn("request_log.malformed_message", {
        message_id: message.id,
        dropped: Math.max(entries.length - valid.length, 1),
      });
    }
    if (valid.length === 0) message.ack();
    else {
      kept.push(message);
      logs.push(...valid);
    }
  }
  if (logs.length === 0) return;
  try {
    const shards = everyShard(env).map((shard) => createDb(shard.env.DB));
    await insertRequestLogs(retentionsIn(shards), createLogsDb(env.LOGS), logs);
    for (const message of kept) message.ack();
  } catch (error) {
    log.error("request_log.insert_failed", { count: logs.length, ...describeError(error) });
    for (const message of kept) message.retry({ delaySeconds: 5 });
  }
}

/** A message's records: its `logs`, or the message itself when it is one record. */
function entriesOf(body: unknown): unknown[] {
  if (body !== null && typeof body === "object" && "logs" in body) {
    return Array.isArray(body.logs) ? body.logs : [];
  }
  return [body];
}
