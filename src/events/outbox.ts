import type { Db } from "../db/client";
import { events } from "../db/schema";
import { newId } from "../lib/ids";

/** The events webhooks can subscribe to (the spec's Events table). */
export const EVENT_NAMES = [
  "ticket.created",
  "ticket.updated",
  "ticket.deleted",
  "message.created",
  "inbox.updated",
  "inbox.deleted",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/**
 * The statement that records an event: put it in the same batch as the change that caused it,
 * so an event exists exactly when its change does (the outbox). `data` is the envelope's data as
 * it is now; the dispatcher sends it later as it was.
 */
export function recordEvent(
  db: Db,
  event: { accountId: string; inboxId: string; name: EventName; data: Record<string, unknown> },
  now: number,
) {
  return db.insert(events).values({
    id: newId("evt"),
    accountId: event.accountId,
    inboxId: event.inboxId,
    event: event.name,
    data: JSON.stringify(event.data),
    createdAt: now,
  });
}
