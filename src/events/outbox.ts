import type { Db, Statement } from "../db/client";
import { events, type inboxes, webhookDeliveries } from "../db/schema";
import { newId } from "../lib/ids";
import { inboxData } from "./payloads";

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

type InboxRow = typeof inboxes.$inferSelect;

/** A webhook as the inbox row stores it: the secret is encrypted. */
interface StoredWebhook {
  url: string;
  events: string[];
  enabled: boolean;
  secret: string;
}

/** What a change adds to its batch to record one event, and the id to announce once it commits. */
export interface RecordedEvent {
  statements: Statement[];
  /** Null when no webhook takes the event: it is stored for the stream, with nothing to send. */
  dispatchId: string | null;
}

/** The webhooks of `inbox` that take `name`: enabled and subscribed, as they are right now. */
function targetsOf(inbox: InboxRow, name: EventName): StoredWebhook[] {
  const webhooks = JSON.parse(inbox.webhooks) as StoredWebhook[];
  return webhooks.filter((webhook) => webhook.enabled && webhook.events.includes(name));
}

/**
 * The statements that record an event: put them in the same batch as the change that caused it,
 * so an event exists exactly when its change does (the outbox). `data` is the envelope's data
 * besides `inbox`, as it is now; `inbox` is the inbox as it is after the change, whose webhooks
 * receive the event. One delivery row per receiving webhook is written with the event, carrying
 * the webhook's URL and encrypted secret, so that the delivery no longer depends on the inbox
 * (`inbox.deleted` deletes it in the same batch) or on later edits of its webhook list.
 */
export function recordEvent(
  db: Db,
  event: { accountId: string; inbox: InboxRow; name: EventName; data?: Record<string, unknown> },
  now: number,
): RecordedEvent {
  const id = newId("evt");
  const targets = targetsOf(event.inbox, event.name);
  const statements: Statement[] = [
    db.insert(events).values({
      id,
      accountId: event.accountId,
      inboxId: event.inbox.id,
      event: event.name,
      data: JSON.stringify({ inbox: inboxData(event.inbox), ...event.data }),
      createdAt: now,
      // Nothing to hand over: the event is complete as soon as it is stored.
      dispatchedAt: targets.length === 0 ? now : null,
    }),
  ];
  if (targets.length > 0) {
    statements.push(
      db.insert(webhookDeliveries).values(
        targets.map((webhook) => ({
          id: newId("dlv"),
          eventId: id,
          url: webhook.url,
          secret: webhook.secret,
          status: "pending",
          createdAt: now,
        })),
      ),
    );
  }
  return { statements, dispatchId: targets.length > 0 ? id : null };
}
