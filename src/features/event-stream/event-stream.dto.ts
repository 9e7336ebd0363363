import { iso, isoOrNull } from "../../lib/time";
import type { EventName } from "../../webhooks/outbox";
import type { DeliveryRow, EventRow } from "./event-stream.repo";

export function toDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    url: row.url,
    status: row.status as "pending" | "sending" | "succeeded" | "failed" | "unknown",
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    error: row.error,
    attempted_at: isoOrNull(row.attemptedAt),
  };
}

/** An event with its own delivery records, picked out of `deliveries` (which may hold other events'). */
export function toEvent(row: EventRow, deliveries: DeliveryRow[]) {
  return {
    id: row.id,
    event: row.event as EventName,
    inbox_id: row.inboxId,
    data: JSON.parse(row.data) as Record<string, unknown>,
    created_at: iso(row.createdAt),
    dispatched_at: isoOrNull(row.dispatchedAt),
    deliveries: deliveries
      .filter((d) => d.eventId === row.id)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(toDelivery),
  };
}

export type Event = ReturnType<typeof toEvent>;
export type Delivery = Event["deliveries"][number];
