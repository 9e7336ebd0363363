import { type SQL, sql } from "drizzle-orm";
import type { Statement } from "../db/client";
import type { inboxes } from "../db/schema";
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
  // Only webhooks that list them by name receive these (a webhook names every event it takes).
  "ticket.sla_warning",
  "ticket.sla_breached",
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
  /** Its workspace: the dispatch message names it, and the consumer finds its shard by it. */
  accountId: string;
}

/** The webhooks of `inbox` that take `name`: enabled and subscribed, as they are right now. */
function targetsOf(inbox: InboxRow, name: EventName): StoredWebhook[] {
  const webhooks = JSON.parse(inbox.webhooks) as StoredWebhook[];
  return webhooks.filter((webhook) => webhook.enabled && webhook.events.includes(name));
}

/**
 * The row the event is about, when it may vanish under a concurrent request: the event is written
 * only while that row exists, so two racing deletes of one inbox record one `inbox.deleted`, and an
 * edit that loses to a delete records nothing. Put a guarded event before a delete, after an update.
 */
export interface EventGuard {
  table: "inboxes" | "tickets";
  id: string;
  /** A further condition the event is written under (an assignment rule's `changes() > 0`). */
  when?: SQL;
}

/**
 * A ticket event's `ticket.assignee_id` as the batch leaves the row when the event is written: an
 * assignment rule chooses the assignee inside the batch, after the payload was made.
 */
function liveTicketData(json: string, data: Record<string, unknown> | undefined): SQL {
  const ticketId = (data?.ticket as { id?: unknown } | undefined)?.id;
  if (typeof ticketId !== "string") return sql`${json}`;
  return sql`json_set(${json}, '$.ticket.assignee_id', (SELECT assignee_id FROM tickets WHERE id = ${ticketId}))`;
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
  event: {
    accountId: string;
    inbox: InboxRow;
    name: EventName;
    data?: Record<string, unknown>;
    guard?: EventGuard;
  },
  now: number,
): RecordedEvent {
  const id = newId("evt");
  const targets = targetsOf(event.inbox, event.name);
  const data = liveTicketData(JSON.stringify({ inbox: inboxData(event.inbox), ...event.data }), event.data);
  // Nothing to hand over when no webhook takes it: the event is complete as soon as it is stored.
  const dispatchedAt = targets.length === 0 ? now : null;
  const guard = event.guard
    ? sql`WHERE EXISTS (SELECT 1 FROM ${sql.identifier(event.guard.table)} WHERE id = ${event.guard.id})
          ${event.guard.when ? sql`AND ${event.guard.when}` : sql``}`
    : sql``;
  const statements: Statement[] = [
    sql`INSERT INTO events (id, account_id, inbox_id, event, data, created_at, dispatched_at)
        SELECT ${id}, ${event.accountId}, ${event.inbox.id}, ${event.name}, ${data}, ${now}, ${dispatchedAt}
        ${guard}`,
  ];
  if (targets.length > 0) {
    const rows = targets.map((webhook) => ({ id: newId("dlv"), url: webhook.url, secret: webhook.secret }));
    statements.push(
      sql`INSERT INTO webhook_deliveries (id, event_id, url, secret, status, created_at)
          SELECT json_extract(value, '$.id'), ${id}, json_extract(value, '$.url'),
                 json_extract(value, '$.secret'), 'pending', ${now}
          FROM json_each(${JSON.stringify(rows)})
          WHERE EXISTS (SELECT 1 FROM events WHERE id = ${id})`,
    );
  }
  return { statements, dispatchId: targets.length > 0 ? id : null, accountId: event.accountId };
}
