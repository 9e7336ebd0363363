import { log } from "../../lib/logger";
import type { RequestLogMessage } from "./request-logs.schemas";

/** A queue batch holds at most 100 messages. */
const MAX_BATCH = 100;
/** How long a record may wait for company before its own request sends it. */
const FLUSH_AFTER_MS = 500;

/**
 * Collects the request logs of one isolate so they go out with `sendBatch`: one queue operation
 * per 100 requests or per half second, instead of one per request.
 *
 * Each request only ever works in its own I/O context: it adds its record, and its own
 * `waitUntil` either sends a full batch at once or waits and then sends whatever is still pending,
 * unless a flush by another request already took its record. No request awaits another's promise
 * (workerd forbids finishing I/O on behalf of another request).
 */
export class RequestLogBuffer {
  private pending: RequestLogMessage[] = [];
  private added = 0;
  private taken = 0;

  constructor(private readonly flushAfterMs = FLUSH_AFTER_MS) {}

  async add(queue: Queue, record: RequestLogMessage): Promise<void> {
    this.pending.push(record);
    const position = ++this.added;
    if (this.pending.length < MAX_BATCH) {
      await new Promise((resolve) => setTimeout(resolve, this.flushAfterMs));
      if (this.taken >= position) return;
    }
    await this.flush(queue);
  }

  private async flush(queue: Queue): Promise<void> {
    const records = this.pending;
    this.pending = [];
    this.taken = this.added;
    if (records.length === 0) return;
    try {
      await queue.sendBatch(records.map((body) => ({ body })));
    } catch (error) {
      log.warn("request_log.enqueue_failed", {
        count: records.length,
        error_message: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
