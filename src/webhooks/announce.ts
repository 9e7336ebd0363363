import { z } from "@hono/zod-openapi";
import { describeError, log } from "../lib/logger";
import type { Defer } from "../lib/request-context";

export type { Defer };

import type { RecordedEvent } from "./outbox";

/**
 * The Queue message of `webhook-dispatch`: ids, never a payload (architecture.md); `accountId`
 * names the workspace whose shard holds the event (absent from messages queued before shards:
 * the first shard's).
 */
export const DispatchMessageSchema = z.object({
  eventId: z.string().regex(/^evt_/),
  accountId: z.string().optional(),
});
export type DispatchMessage = z.infer<typeof DispatchMessageSchema>;

/**
 * Hands committed events to the webhook Queue, after the response when `defer` is given, so the
 * request does not wait for it. A failed send is logged, not thrown: the change and its event are
 * already stored, and the minute sweep dispatches any event the Queue did not take.
 */
export async function announceEvents(
  queue: Queue,
  recorded: Array<RecordedEvent | null | undefined>,
  defer?: Defer,
): Promise<void> {
  const messages = recorded.flatMap((event) =>
    event?.dispatchId
      ? [{ body: { eventId: event.dispatchId, accountId: event.accountId } satisfies DispatchMessage }]
      : [],
  );
  if (messages.length === 0) return;
  const ids = messages.map((m) => m.body.eventId);
  const send = queue.sendBatch(messages).catch((error: unknown) => {
    log.warn("events.enqueue_failed", { events: ids.join(","), ...describeError(error) });
  });
  if (defer) defer(send);
  else await send;
}
