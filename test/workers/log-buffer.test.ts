import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_BYTES, RequestLogBuffer } from "../../src/features/request-logs/log-buffer";
import type {
  RequestLogBatchMessage,
  RequestLogMessage,
} from "../../src/features/request-logs/request-logs.schemas";

/**
 * A queue that records what it was sent: the unit under test is the batching, not the queue.
 * `batches` has one entry per flush's message (its records' statuses); `sends` every call's bodies.
 */
function recordingQueue() {
  const batches: number[][] = [];
  const sends: RequestLogBatchMessage[][] = [];
  const queue = {
    sendBatch: async (messages: Iterable<MessageSendRequest<RequestLogBatchMessage>>) => {
      const bodies = [...messages].map((m) => m.body);
      sends.push(bodies);
      for (const body of bodies) batches.push(body.logs.map((log) => log.status));
    },
  } as unknown as Queue;
  return { queue, batches, sends };
}

const record = (n: number) => ({ status: n }) as RequestLogMessage;

describe("RequestLogBuffer", () => {
  it("sends full batches of 100 at once and the rest after the flush delay, each record once, a message each", async () => {
    const { queue, batches, sends } = recordingQueue();
    const buffer = new RequestLogBuffer(20);
    const waits = Array.from({ length: 250 }, (_, i) => buffer.add(queue, record(i)));
    await Promise.resolve();
    expect(batches.map((b) => b.length)).toEqual([100, 100]);
    await Promise.all(waits);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(sends.map((bodies) => bodies.length)).toEqual([1, 1, 1]);
  });

  it("has only the request that opens a window wait, and sends the window's records from it", async () => {
    const { queue, batches } = recordingQueue();
    const buffer = new RequestLogBuffer(20);
    const opener = buffer.add(queue, record(1));
    expect(opener).toBeInstanceOf(Promise);
    expect(buffer.add(queue, record(2))).toBeNull();
    expect(buffer.add(queue, record(3))).toBeNull();
    await opener;
    expect(batches).toEqual([[1, 2, 3]]);
    const next = buffer.add(queue, record(4));
    expect(next).toBeInstanceOf(Promise);
    await next;
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it("sends a flush as one message, and splits one whose records pass 96 KB, two messages a call", async () => {
    const { queue, sends } = recordingQueue();
    const buffer = new RequestLogBuffer(5);
    // 100 records with 4 KB paths: about 410 KB of JSON, so five messages in three calls.
    const long = (n: number) => ({ status: n, path: `/${"p".repeat(4096)}` }) as RequestLogMessage;
    const waits = Array.from({ length: 100 }, (_, i) => buffer.add(queue, long(i)));
    await Promise.all(waits);
    const messages = sends.flat();
    expect(sends.map((bodies) => bodies.length)).toEqual([2, 2, 1]);
    for (const message of messages)
      expect(JSON.stringify(message.logs).length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(messages.flatMap((m) => m.logs.map((log) => log.status))).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  it("logs and drops a batch the queue refuses, without failing the request", async () => {
    const queue = { sendBatch: () => Promise.reject(new Error("queue down")) } as unknown as Queue;
    await expect(new RequestLogBuffer(5).add(queue, record(1)) ?? undefined).resolves.toBeUndefined();
  });
});
