import { describeError, log } from "../../lib/logger";
import { jsonLength } from "../../lib/text";
import type { RequestLogBatchMessage, RequestLogMessage } from "./request-logs.schemas";

/** Records a flush holds at most: the 100th sends at once. */
const MAX_BATCH = 100;
/** How long records wait for company before they are sent. */
const FLUSH_AFTER_MS = 500;
/**
 * A message's records as JSON, at most: a queue message may be 128 KB. A record is a few hundred
 * bytes, so a flush is normally one message; long paths (a URL may be 16 KB) split it.
 */
export const MAX_MESSAGE_BYTES = 96 * 1024;
/** Messages per `sendBatch`: one call may carry 256 KB. */
const MESSAGES_PER_SEND = 2;

/**
 * Collects the request logs of one isolate so they go out together: one queue message per 100
 * requests or per half second, instead of one per request. A queue operation is billed per
 * message (and each costs the consumer a message), so this is about 100 times fewer.
 *
 * The request that opens a window arms the timer in its own `waitUntil` and, when it fires, sends
 * whatever the window gathered from its own I/O context; the 100th record's request sends at once.
 * Other requests only add their record (plain data) and wait for nothing: workerd does not let a
 * request await I/O begun by another.
 */
export class RequestLogBuffer {
  private pending: RequestLogMessage[] = [];
  private windowOpen = false;

  constructor(private readonly flushAfterMs = FLUSH_AFTER_MS) {}

  /** Answers what the calling request must keep alive (`waitUntil`), if anything. */
  add(queue: Queue, record: RequestLogMessage): Promise<void> | null {
    this.pending.push(record);
    if (this.pending.length >= MAX_BATCH) return this.flush(queue);
    if (this.windowOpen) return null;
    this.windowOpen = true;
    return new Promise<void>((resolve) => setTimeout(resolve, this.flushAfterMs)).then(() =>
      this.flush(queue),
    );
  }

  private async flush(queue: Queue): Promise<void> {
    const records = this.pending;
    this.pending = [];
    this.windowOpen = false;
    if (records.length === 0) return;
    const messages = messagesOf(records).map((body) => ({ body }));
    for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND) {
      const sending = messages.slice(i, i + MESSAGES_PER_SEND);
      try {
        await queue.sendBatch(sending);
      } catch (error) {
        log.warn("request_log.enqueue_failed", {
          count: sending.reduce((sum, m) => sum + m.body.logs.length, 0),
          ...describeError(error),
        });
      }
    }
  }
}

/** The records in order, in messages of at most MAX_MESSAGE_BYTES of JSON each. */
export function messagesOf(records: RequestLogMessage[]): RequestLogBatchMessage[] {
  const messages: RequestLogBatchMessage[] = [];
  let current: RequestLogMessage[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = jsonLength(record) + 1;
    if (current.length > 0 && bytes + size > MAX_MESSAGE_BYTES) {
      messages.push({ logs: current });
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0) messages.push({ logs: current });
  return messages;
}
