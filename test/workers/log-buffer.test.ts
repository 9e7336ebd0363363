import { describe, expect, it } from "vitest";
import { RequestLogBuffer } from "../../src/features/request-logs/log-buffer";
import type { RequestLogMessage } from "../../src/features/request-logs/request-logs.schemas";

/** A queue that records what it was sent: the unit under test is the batching, not the queue. */
function recordingQueue() {
  const batches: number[][] = [];
  const queue = {
    sendBatch: async (messages: Iterable<MessageSendRequest<RequestLogMessage>>) => {
      batches.push([...messages].map((m) => m.body.status));
    },
  } as unknown as Queue;
  return { queue, batches };
}

const record = (n: number) => ({ status: n }) as RequestLogMessage;

describe("RequestLogBuffer", () => {
  it("sends full batches of 100 at once and the rest after the flush delay, each record once", async () => {
    const { queue, batches } = recordingQueue();
    const buffer = new RequestLogBuffer(20);
    const waits = Array.from({ length: 250 }, (_, i) => buffer.add(queue, record(i)));
    await Promise.resolve();
    expect(batches.map((b) => b.length)).toEqual([100, 100]);
    await Promise.all(waits);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i));
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

  it("logs and drops a batch the queue refuses, without failing the request", async () => {
    const queue = { sendBatch: () => Promise.reject(new Error("queue down")) } as unknown as Queue;
    await expect(new RequestLogBuffer(5).add(queue, record(1)) ?? undefined).resolves.toBeUndefined();
  });
});
