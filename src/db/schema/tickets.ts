import { isNotNull, sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { customers, inboxes, tags } from "./support";

export const TICKET_STATUSES = ["open", "pending", "on_hold", "resolved", "closed", "spam"] as const;
export const TICKET_PRIORITIES = ["low", "normal", "high", "urgent"] as const;

export const tickets = sqliteTable(
  "tickets",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    inboxId: text("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    /** The workspace sequence number behind `client_id`, never reused. */
    number: integer("number").notNull(),
    clientId: text("client_id").notNull(),
    subject: text("subject").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    priority: text("priority", { enum: TICKET_PRIORITIES }).notNull().default("normal"),
    sharedUuid: text("shared_uuid").notNull(),
    metadata: text("metadata").notNull().default("{}"),
    assigneeId: text("assignee_id"),
    messageCount: integer("message_count").notNull().default(0),
    lastMessageAt: integer("last_message_at"),
    snoozedUntil: integer("snoozed_until"),
    closedAt: integer("closed_at"),
    mergedIntoId: text("merged_into_id"),
    /**
     * Moves on every change a GET of the ticket would show (the ETag): triggers bump it on any
     * update of the row, of its tag links or of its customer's name or email (see the migration
     * that made it), so no writer has to remember to.
     */
    version: integer("version").notNull().default(1),
    /** The SLA clock's state as JSON (src/features/sla/sla-state.ts); null when no policy covers it. */
    sla: text("sla"),
    /** The earliest due time of the SLA targets still running: `sla_due_before` lists by it. */
    slaDueAt: integer("sla_due_at"),
    /** 1 once any SLA target was missed: `sla_breached=true` lists by it. */
    slaBreached: integer("sla_breached").notNull().default(0),
    /** The next moment the minute cron has an SLA warning or breach to fire for this ticket. */
    slaNextAt: integer("sla_next_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("tickets_shared_uuid").on(t.sharedUuid),
    uniqueIndex("tickets_account_number").on(t.accountId, t.number),
    index("tickets_account_created").on(t.accountId, t.createdAt, t.id),
    index("tickets_account_updated").on(t.accountId, t.updatedAt, t.id),
    index("tickets_account_status_created").on(t.accountId, t.status, t.createdAt, t.id),
    index("tickets_account_priority_created").on(t.accountId, t.priority, t.createdAt, t.id),
    index("tickets_account_status_priority_created").on(t.accountId, t.status, t.priority, t.createdAt, t.id),
    index("tickets_account_inbox_created").on(t.accountId, t.inboxId, t.createdAt, t.id),
    index("tickets_account_customer_created").on(t.accountId, t.customerId, t.createdAt, t.id),
    index("tickets_account_assignee_created").on(t.accountId, t.assigneeId, t.createdAt, t.id),
    // Views' counts (Unassigned, Mine: open and unassigned or assigned to one user) read only these entries.
    index("tickets_account_assignee_status_created").on(
      t.accountId,
      t.assigneeId,
      t.status,
      t.createdAt,
      t.id,
    ),
    // Deleting an inbox (cascade) or a customer (refused while tickets name it) looks up tickets by
    // these alone; the indexes above lead with the workspace and cannot serve that.
    index("tickets_inbox").on(t.inboxId),
    // SLA lists and the SLA sweep (src/features/sla): the sweep reads every workspace of its shard.
    index("tickets_account_sla_breached_created").on(t.accountId, t.slaBreached, t.createdAt, t.id),
    index("tickets_account_sla_due").on(t.accountId, t.slaDueAt, t.id),
    index("tickets_sla_next").on(t.slaNextAt).where(sql`sla_next_at IS NOT NULL`),
    index("tickets_customer").on(t.customerId),
    // The minute sweep finds snoozes that are due across the shard; only snoozed tickets have an entry.
    index("tickets_snoozed_until").on(t.snoozedUntil).where(isNotNull(t.snoozedUntil)),
  ],
);

export const ticketTags = sqliteTable(
  "ticket_tags",
  {
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index("ticket_tags_tag").on(t.tagId, t.ticketId)],
);

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["customer", "reply", "note"] }).notNull(),
    direction: text("direction", { enum: ["inbound", "outbound", "internal"] }).notNull(),
    authorType: text("author_type", { enum: ["customer", "user", "api"] }).notNull(),
    authorId: text("author_id"),
    from: text("from_address"),
    to: text("to_list").notNull().default("[]"),
    cc: text("cc_list").notNull().default("[]"),
    subject: text("subject"),
    bodyText: text("body_text"),
    bodyHtml: text("body_html"),
    /**
     * `body_html` as text, made once when the message is written and only when it has no
     * `body_text`: what pages show (they never render stored HTML, nor convert it per view).
     */
    htmlText: text("html_text"),
    isDraft: integer("is_draft", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["draft", "queued", "sent", "failed", "received"] }).notNull(),
    /** The email that carried a reply out, and the RFC 5322 Message-ID used for threading. */
    emailId: text("email_id"),
    emailMessageId: text("email_message_id"),
    /** The MIME of a message that came in by email, as received, in R2; its bytes count as storage. */
    rawKey: text("raw_key"),
    rawSize: integer("raw_size").notNull().default(0),
    /** An emailed message's new text, without the quoted history below it (`body_text` keeps all). */
    strippedText: text("stripped_text"),
    /** Sent by a machine (Auto-Submitted, Precedence, X-Autoreply): never answered automatically. */
    autoSubmitted: integer("auto_submitted", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    index("messages_ticket_created").on(t.ticketId, t.createdAt, t.id),
    index("messages_email").on(t.emailId),
    // Threading: a reply's In-Reply-To and References are looked up here; one workspace never
    // stores one Message-ID twice, so the same mail delivered again is recognised.
    uniqueIndex("messages_account_email_message_id").on(t.accountId, t.emailMessageId),
  ],
);

/** Attachment metadata; the bytes live in R2 under `key`. */
export const messageAttachments = sqliteTable(
  "message_attachments",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    key: text("key").notNull(),
    /** The Content-ID (without angle brackets) of an inline part that `cid:` links name. */
    contentId: text("content_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("message_attachments_message").on(t.messageId, t.createdAt)],
);

/**
 * How many tickets each account has, kept by triggers on `tickets` (migration 0005), so the
 * unfiltered ticket list answers its `total` without counting every ticket of the account.
 */
export const ticketCounts = sqliteTable("ticket_counts", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  total: integer("total").notNull().default(0),
});

/**
 * How many tickets match each common list filter, kept by triggers (the migration that made this
 * table), so a filtered list answers its `total` from one row instead of counting the matches.
 * `facet` is status, priority, status_priority (value "status:priority"), inbox, assignee or tag
 * (value the tag id: a ticket holds a tag of its own inbox at most once per name, so the tickets
 * of a tag name are the sum over that name's tags).
 */
export const ticketFacetCounts = sqliteTable(
  "ticket_facet_counts",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    facet: text("facet", {
      enum: ["status", "priority", "status_priority", "inbox", "assignee", "tag"],
    }).notNull(),
    value: text("value").notNull(),
    total: integer("total").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.facet, t.value] })],
);
