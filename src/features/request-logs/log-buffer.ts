import { describeError, log } from "../../lib/logger";
import type { RequestLogMessage } from "./request-logs.schemas";

/** A queue batch holds at most 100 messages. */
const MAX_BATCH = 100;
/** How long records wait for company before they are sent. */
const FLUSH_AFTER_MS = 500;

/**
 * Collects the request logs of one isolate so they go out with `sendBatch`: one queue operation
 * per 100 requests or per half second, instead of one per request.
 *
 * The request that opens a window arms the timer in its own `waitUntil` and, when it fires, sends
 * whatever the window gathered from its own I/O context; the 100th record's request sends a full
 * batch at once. Other requests only add their record (plain data) and wait for nothing: workerd
 * does not let a request await I/O begun by another.
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
    try {
      await queue.sendBatch(records.map((body) => ({ body })));
    } catch (error) {
      log.warn("request_log.enqueue_failed", {
        count: records.length,
        ...describeError(error),
      });
    }
  }
}
