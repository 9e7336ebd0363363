import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { connections } from "./connections";

export const ASSIGNMENT_RULES = ["manual", "round_robin", "balanced"] as const;

/**
 * A shared mailbox. `webhooks` is a JSON array of { url, events, enabled, secret } where each
 * secret is stored encrypted (AES-GCM under a key derived from ENCRYPTION_KEY), never in plain text.
 */
export const inboxes = sqliteTable(
  "inboxes",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /**
     * Lowercase; unique across the service, since inbound mail is routed by it: the directory's
     * `inbox_addresses` claims it (src/db/directory/inbox-addresses.ts), this shard's index within the shard.
     */
    emailAddress: text("email_address").notNull(),
    connectionId: text("connection_id").references(() => connections.id),
    statusAfterReply: text("status_after_reply").notNull().default("pending"),
    /** Who takes a new or reopened ticket (docs/assignment.md): `manual` leaves it to people. */
    assignmentRule: text("assignment_rule", { enum: ASSIGNMENT_RULES }).notNull().default("manual"),
    /** The user the rule chose last: round robin (and balanced, among equals) goes on after them. */
    assignmentCursor: text("assignment_cursor"),
    /**
     * The enabled SLA policy covering the inbox, as JSON of its id and terms (src/features/sla),
     * kept by every policy write in its own batch: a ticket's write reads it with the inbox it
     * reads anyway, so an SLA costs no round trip of its own. Null when no policy covers it.
     */
    slaPolicy: text("sla_policy"),
    webhooks: text("webhooks").notNull().default("[]"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("inboxes_email_address").on(t.emailAddress),
    index("inboxes_account_created").on(t.accountId, t.createdAt, t.id),
    index("inboxes_connection").on(t.connectionId),
  ],
);

export const customers = sqliteTable(
  "customers",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Lowercase; unique per workspace. */
    email: text("email").notNull(),
    name: text("name"),
    phone: text("phone"),
    blocked: integer("blocked", { mode: "boolean" }).notNull().default(false),
    metadata: text("metadata").notNull().default("{}"),
    /** Campaigns skip the customer; the `unsubscribes` row says how and when (set together). */
    unsubscribed: integer("unsubscribed", { mode: "boolean" }).notNull().default(false),
    unsubscribedAt: integer("unsubscribed_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("customers_account_email").on(t.accountId, t.email),
    index("customers_account_created").on(t.accountId, t.createdAt, t.id),
  ],
);

export const tags = sqliteTable(
  "tags",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    inboxId: text("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** lower(name): names are unique per inbox whatever their case. */
    nameKey: text("name_key").notNull(),
    color: text("color"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("tags_inbox_name").on(t.inboxId, t.nameKey),
    index("tags_account_created").on(t.accountId, t.createdAt, t.id),
    index("tags_account_inbox_created").on(t.accountId, t.inboxId, t.createdAt, t.id),
    index("tags_account_name").on(t.accountId, t.nameKey),
  ],
);
