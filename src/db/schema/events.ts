import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * The outbox and event stream: every webhook event, written in the same D1 batch as the change
 * that caused it, with the payload as it was at that moment (so `ticket.deleted` and
 * `inbox.deleted` carry the last state). Dispatch marks `dispatched_at`.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Not a foreign key: inbox.deleted outlives its inbox. */
    inboxId: text("inbox_id").notNull(),
    event: text("event").notNull(),
    /** JSON of the envelope's `data`. */
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
    dispatchedAt: integer("dispatched_at"),
  },
  (t) => [
    index("events_account_created").on(t.accountId, t.createdAt, t.id),
    index("events_account_event_created").on(t.accountId, t.event, t.createdAt, t.id),
    index("events_account_inbox_created").on(t.accountId, t.inboxId, t.createdAt, t.id),
    // The stream filtered by inbox and event walks this in page order.
    index("events_account_inbox_event_created").on(t.accountId, t.inboxId, t.event, t.createdAt, t.id),
    // The sweep (jobs/sweep-events.ts): the workspaces with events not yet dispatched, each one's
    // in order. Undispatched events only: a handful, unless a workspace's are held (suspended).
    index("events_undispatched_by_account").on(t.accountId, t.createdAt).where(sql`dispatched_at IS NULL`),
  ],
);

/**
 * How many events each account has per (inbox, event name), kept by triggers on `events` (inserts,
 * retention prunes, the account's cascade), so the stream's `total` sums a few counter rows
 * instead of counting every event.
 */
export const eventCounts = sqliteTable(
  "events_counts",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    inboxId: text("inbox_id").notNull(),
    event: text("event").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.inboxId, t.event] })],
);

/**
 * One row per event and webhook, written with the event (from the inbox's webhooks at that moment,
 * so `inbox.deleted` still reaches the webhooks it deletes). A delivery is claimed (`pending` →
 * `sending`) before its one attempt, so a redelivered Queue message never attempts it again.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The webhook's secret, encrypted as on the inbox; cleared once the attempt is over. */
    secret: text("secret"),
    /** pending | sending | succeeded | failed | unknown (the attempt's outcome was lost) */
    status: text("status").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    attemptedAt: integer("attempted_at"),
  },
  (t) => [
    index("webhook_deliveries_event").on(t.eventId),
    index("webhook_deliveries_status_attempted").on(t.status, t.attemptedAt),
  ],
);
