import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * Workspace-level webhooks for email events (product.md "Email event webhooks"), beside the
 * spec's inbox webhooks, which live in `inboxes.webhooks` and stay as specified.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** JSON array of event names; the outbox matches it in SQL with json_each. */
    events: text("events").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    /** The `whsec_` secret, AES-GCM encrypted like inbox webhook secrets. */
    secret: text("secret").notNull(),
    disabledReason: text("disabled_reason"),
    /** When the current run of failed attempts began; a success clears it. */
    failingSince: integer("failing_since"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_account_created").on(t.accountId, t.createdAt, t.id)],
);

/**
 * The outbox: one row per event and endpoint, written in the same D1 batch as the fact. `body` is
 * the exact bytes signed and sent, so every attempt of an event sends the same thing.
 * `next_attempt_at` is when a `pending` row is due, or when a `delivering` row's claim lapses (its
 * outcome was lost with its Worker); null once the row is `succeeded` or `failed`.
 */
export const emailWebhookOutbox = sqliteTable(
  "email_webhook_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The envelope's `id` and `X-Webhook-Id`: one per event, shared by its endpoints' rows. */
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    body: text("body").notNull(),
    /** pending | delivering | succeeded | failed */
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // Lapsed claims at their last attempt, which the sweep closes; finished rows, by id, for pruning.
    index("email_webhook_outbox_due").on(t.state, t.nextAttemptAt),
    // The fair sweep (webhooks/fair-share.ts): the endpoints with open rows, each one's due rows in
    // order. Open rows only, so a finished backlog is never stepped over.
    index("email_webhook_outbox_open_by_endpoint")
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`next_attempt_at IS NOT NULL`),
    // The announcement after a commit names its events.
    index("email_webhook_outbox_event").on(t.eventId),
    // Deleting an endpoint cascades to its rows: found by this, not by reading every workspace's.
    index("email_webhook_outbox_endpoint").on(t.endpointId),
    // A workspace keeping its email history less than the outbox's 30 days has its finished rows
    // pruned by its own retention (jobs/prune-email-webhooks.ts): found by this, per workspace.
    index("email_webhook_outbox_account_finished")
      .on(t.accountId, t.createdAt)
      .where(sql`next_attempt_at IS NULL`),
  ],
);

/** Every attempt of an outbox row, as GET /v1/webhooks/{id}/deliveries shows them. */
export const emailWebhookAttempts = sqliteTable(
  "email_webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    outboxId: integer("outbox_id")
      .notNull()
      .references(() => emailWebhookOutbox.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // The endpoint's deliveries, newest first (ids grow with time).
    index("email_webhook_attempts_endpoint").on(t.endpointId, t.id),
    index("email_webhook_attempts_outbox").on(t.outboxId),
  ],
);
