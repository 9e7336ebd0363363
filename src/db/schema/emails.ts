import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { connections } from "./connections";

/** The address in `from_header`: what follows its last `<`, without the closing `>`. */
const FROM_ADDRESS = sql`CASE WHEN substr(from_header, -1) = '>' THEN substr(from_header,
  length(rtrim(from_header, replace(from_header, '<', ''))) + 1,
  length(from_header) - length(rtrim(from_header, replace(from_header, '<', ''))) - 1) ELSE from_header END`;

export const EMAIL_STATUSES = [
  "scheduled",
  "queued",
  "sending",
  "sent",
  "delivered",
  "bounced",
  "failed",
  "cancelled",
] as const;

/**
 * Compact by design (issue 29; migration 0031): `seq`, the row's own number, is what recipients,
 * tags and events refer to instead of the 30-character public id; `account_seq` (accounts.seq)
 * names the workspace in the list indexes. The public id and account_id stay for lookups and
 * tenancy checks. Nothing is kept twice (migration 0032): the tags are `email_tags` rows, the
 * sender's address is read from the From header, and the email's acceptance is its `created_at`.
 */
export const emails = sqliteTable(
  "emails",
  {
    /** SQLite's rowid: assigned on insert, never reused while the row exists. */
    seq: integer("seq").primaryKey(),
    id: text("id").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The workspace's number (accounts.seq), for the list indexes: set from account_id on insert. */
    accountSeq: integer("account_seq").notNull(),
    connectionId: text("connection_id").references(() => connections.id, { onDelete: "set null" }),
    /** How it reached us: api, batch, smtp (the relay) or ticket (support replies). */
    source: text("source").notNull().default("api"),
    from: text("from_header").notNull(),
    /**
     * The sender's bare address, read from the From header (`Name <address>` or `address`; an
     * address never holds `<`), not stored: SQLite computes it as the row is read.
     */
    fromAddress: text("from_address").notNull().generatedAlwaysAs(FROM_ADDRESS, { mode: "virtual" }),
    /** JSON arrays of header-formatted addresses. */
    to: text("to_list").notNull(),
    cc: text("cc_list").notNull().default("[]"),
    bcc: text("bcc_list").notNull().default("[]"),
    replyTo: text("reply_to_list").notNull().default("[]"),
    subject: text("subject").notNull(),
    html: text("html"),
    text: text("text"),
    /** JSON object of custom headers. */
    headers: text("headers").notNull().default("{}"),
    /** JSON array of { filename, content_type, content_id, size, key } (bytes in R2 under key). */
    attachments: text("attachments").notNull().default("[]"),
    trackOpens: integer("track_opens", { mode: "boolean" }).notNull().default(false),
    trackClicks: integer("track_clicks", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: EMAIL_STATUSES }).notNull(),
    scheduledAt: integer("scheduled_at"),
    /**
     * Only a Message-ID the caller chose: the one the service makes, `<id@sender domain>`, is
     * derived (messageIdOf in features/emails/message-id.ts), not stored.
     */
    messageId: text("message_id"),
    lastEvent: text("last_event").notNull(),
    lastEventAt: integer("last_event_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /**
     * While `sending`: the claim lasts until this time. A sender that has not finished by then is
     * presumed dead, and the minute sweep takes the email back (see `handoffAttempt`).
     */
    leaseUntil: integer("lease_until"),
    /**
     * The attempt (its `attempts` number) that handed the message to the transport. Set, with a
     * check that the claim is still this attempt's, just before the transport is called: a claim
     * taken back before this point is safe to send again; one taken back after it may have been
     * accepted, and is never sent again.
     */
    handoffAttempt: integer("handoff_attempt"),
    /** Bytes this email accounts for in the storage quota: its own attachments and its built message. */
    storedBytes: integer("stored_bytes").notNull().default(0),
    /** After a temporary failure: not to be tried again before this time. */
    nextAttemptAt: integer("next_attempt_at"),
    /** The transport's last answer, or why the email failed. */
    /** The campaign this email was sent for (its opens, clicks and bounces count in its stats). */
    campaignId: text("campaign_id"),
    /** The template and its published version the email was built from (`template` on GET). */
    templateId: text("template_id"),
    templateVersionId: text("template_version_id"),
    /** The layout and its published version the template was sent inside, if it names one. */
    templateLayoutId: text("template_layout_id"),
    templateLayoutVersionId: text("template_layout_version_id"),
    lastResponse: text("last_response"),
    size: integer("size"),
    openCount: integer("open_count").notNull().default(0),
    firstOpenedAt: integer("first_opened_at"),
    lastOpenedAt: integer("last_opened_at"),
    clickCount: integer("click_count").notNull().default(0),
    firstClickedAt: integer("first_clicked_at"),
    lastClickedAt: integer("last_clicked_at"),
    sentAt: integer("sent_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("emails_id").on(t.id),
    // Every index ends with the rowid (seq), which breaks ties between emails of one millisecond.
    index("emails_account_created").on(t.accountSeq, t.createdAt),
    index("emails_account_status_created").on(t.accountSeq, t.status, t.createdAt),
    // The send pipeline's sweeps read only emails still waiting or going out: partial indexes keep
    // sent mail, nearly all of it, out of them.
    index("emails_account_scheduled").on(t.accountSeq, t.scheduledAt).where(sql`status = 'scheduled'`),
    index("emails_scheduled_due").on(t.scheduledAt).where(sql`status = 'scheduled'`),
    index("emails_queued_updated").on(t.updatedAt).where(sql`status = 'queued'`),
    index("emails_sending_lease").on(t.leaseUntil).where(sql`status = 'sending'`),
    // A bounce or complaint report names the email by the Message-ID of the returned original;
    // a derived one is found by the id it contains.
    index("emails_account_message_id").on(t.accountId, t.messageId).where(sql`message_id IS NOT NULL`),
    // Deleting a connection (set null) looks up its emails by this: without it, by reading every
    // workspace's emails. System mail has no connection, so it is partial. (account_id has no index
    // of its own on purpose: see test/workers/indexes-foreign-keys.test.ts.)
    index("emails_connection").on(t.connectionId).where(sql`connection_id IS NOT NULL`),
  ],
);

export const RECIPIENT_STATES = [
  "pending",
  "sending",
  "accepted",
  "deferred",
  "rejected",
  "failed",
  "unknown",
  "bounced",
] as const;

/**
 * Every distinct recipient (to, cc and bcc) of an email, for the `to` filter, with how its delivery
 * stands. Each recipient is its own envelope, handed off and answered on its own: a retry goes only
 * to recipients still `pending` (never tried) or `deferred` (and due), never to one the transport
 * accepted. `sending`: handed to the transport by the attempt under way, its answer not recorded
 * yet; the sweep makes it `unknown` if that attempt's sender dies. `failed`: deferred on every one
 * of its attempts, or its message could not be built; nobody refused it for good. `bounced`: a
 * delivery status notification (RFC 3464) came back for a recipient the transport had accepted.
 */
export const emailRecipients = sqliteTable(
  "email_recipients",
  {
    emailSeq: integer("email_seq")
      .notNull()
      .references(() => emails.seq, { onDelete: "cascade" }),
    accountSeq: integer("account_seq").notNull(),
    address: text("address").notNull(),
    state: text("state", { enum: RECIPIENT_STATES }).notNull().default("pending"),
    /** The transport's last answer about this recipient. */
    response: text("response"),
    /**
     * How many times the transport was asked about this recipient (a transaction begun and
     * answered, or refused before it began: a lost connection, a message that could not be
     * built). The retry budget is per recipient: one never tried spends none of it.
     */
    attempts: integer("attempts").notNull().default(0),
    /** A deferred recipient is not tried again before this time (its own backoff). */
    retryAt: integer("retry_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.emailSeq, t.address] }),
    index("email_recipients_account_address").on(t.accountSeq, t.address, t.createdAt),
  ],
);

/** An email's tags: the list's tag filter walks their indexes, and the email shows them from here. */
export const emailTags = sqliteTable(
  "email_tags",
  {
    emailSeq: integer("email_seq")
      .notNull()
      .references(() => emails.seq, { onDelete: "cascade" }),
    accountSeq: integer("account_seq").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    /** Where the tag stood in the caller's list (0 first): the email shows its tags in that order. */
    position: integer("position").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // Keyed by position: an email's tags are read in the caller's order straight from the key.
    primaryKey({ columns: [t.emailSeq, t.position] }),
    index("email_tags_account_name_value").on(t.accountSeq, t.name, t.value, t.createdAt),
    index("email_tags_account_name").on(t.accountSeq, t.name, t.createdAt),
  ],
);

/**
 * What happened to an email after it was accepted, oldest first: sent, deferred, bounced, opened,
 * clicked... Its acceptance is no row here: the email's `created_at` says when.
 */
export const emailEvents = sqliteTable(
  "email_events",
  {
    id: integer("id").primaryKey(),
    emailSeq: integer("email_seq")
      .notNull()
      .references(() => emails.seq, { onDelete: "cascade" }),
    type: text("type").notNull(),
    detail: text("detail"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("email_events_email").on(t.emailSeq, t.createdAt)],
);

/** A replayable answer per Idempotency-Key, kept 24 hours. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status").notNull(),
    responseBody: text("response_body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);
