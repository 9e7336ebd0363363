import { z } from "@hono/zod-openapi";
import { log } from "../lib/logger";
import type { RecordedEvent } from "./outbox";

/** The Queue message of `webhook-dispatch`: an id, never a payload (architecture.md). */
export const DispatchMessageSchema = z.object({ eventId: z.string().regex(/^evt_/) });
export type DispatchMessage = z.infer<typeof DispatchMessageSchema>;

/**
 * Hands committed events to the webhook Queue. A failed send is logged, not thrown: the change and
 * its event are already stored, and the minute sweep dispatches any event the Queue did not take.
 */
export async function announceEvents(
  queue: Queue,
  recorded: Array<RecordedEvent | null | undefined>,
): Promise<void> {
  const ids = recorded.flatMap((event) => (event?.dispatchId ? [event.dispatchId] : []));
  if (ids.length === 0) return;
  try {
    await queue.sendBatch(ids.map((id) => ({ body: { eventId: id } })));
  } catch (error) {
    log.warn("events.enqueue_failed", { events: ids.join(","), error: String(error) });
  }
}
