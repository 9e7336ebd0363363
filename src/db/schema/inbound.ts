import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/** Why a received email became no message (src/inbound/). */
export const DROP_REASONS = [
  "parse_failed",
  "own_address",
  "loop",
  "customer_blocked",
  "auto_submitted",
  "no_sender",
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * Mail an inbox accepted (the sender was not refused) that became no message: unparseable, our
 * own mail coming back, a blocked customer's, an automatic answer that threads into no ticket.
 * The bytes stay in R2 under `raw_key`, so nothing received is lost silently. Not counted in the
 * workspace's storage; listed by GET /v1/inbound/dropped under `public_id` (the integer `id` is
 * internal: it would tell one workspace how much mail the others drop).
 */
export const droppedMail = sqliteTable(
  "dropped_mail",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    inboxId: text("inbox_id").notNull(),
    reason: text("reason", { enum: DROP_REASONS }).notNull(),
    /** What went wrong, for a parse failure: the parser's message. */
    detail: text("detail"),
    /** The SMTP envelope: MAIL FROM (empty for a bounce) and the RCPT TO this copy was for. */
    mailFrom: text("mail_from").notNull(),
    rcptTo: text("rcpt_to").notNull(),
    messageId: text("message_id"),
    rawKey: text("raw_key").notNull(),
    rawSize: integer("raw_size").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("dropped_mail_created").on(t.createdAt),
    // The list's filters; each index ends in the rowid, which breaks ties in the newest-first order.
    index("dropped_mail_account_created").on(t.accountId, t.createdAt),
    index("dropped_mail_account_inbox").on(t.accountId, t.inboxId, t.createdAt),
    index("dropped_mail_account_reason").on(t.accountId, t.reason, t.createdAt),
    uniqueIndex("dropped_mail_public_id").on(t.publicId),
  ],
);

export const REPORT_TYPES = ["delivery_status", "feedback"] as const;
/**
 * What a received report did: `applied` (a recipient of one of our emails marked bounced, delayed
 * or complained), `unmatched` (it names no email of ours, or no recipient of it), `informational`
 * (only delivered, relayed or expanded notices), `unsupported` (mail to the bounce address that is
 * no RFC 3464 or RFC 5965 report).
 */
export const REPORT_OUTCOMES = ["applied", "unmatched", "informational", "unsupported"] as const;

/** What the list calls a report: `type` as people read it, `unsupported` when it was no report. */
export const MAIL_REPORT_KINDS = ["bounce", "complaint", "unsupported"] as const;
export const BOUNCE_TYPES = ["hard", "soft"] as const;
/**
 * What the service did about the report's recipient: `suppressed` (the address is suppressed after
 * it), `counted` (a bounce or complaint recorded, the address still deliverable), `ignored`.
 */
export const MAIL_REPORT_ACTIONS = ["suppressed", "counted", "ignored"] as const;

/**
 * Every bounce (RFC 3464, or a plain notice) and complaint (RFC 5965) report received, matched or
 * not; the bytes stay in R2 under `raw_key`. `email_id` is set when the report names an email of
 * ours; `account_id` is that email's workspace, else the workspace whose inbox received the
 * report (null only for a bounce address whose email is gone). The workspace's reports are
 * listed by GET /v1/mail-reports under `public_id`. The listed columns (recipient to action)
 * describe one recipient: the one the report acted on, else the first it names; `detail` keeps
 * them all. Not counted in any storage quota.
 */
export const mailReports = sqliteTable(
  "mail_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicId: text("public_id").notNull(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    emailId: text("email_id"),
    type: text("type", { enum: REPORT_TYPES }),
    outcome: text("outcome", { enum: REPORT_OUTCOMES }).notNull(),
    kind: text("kind", { enum: MAIL_REPORT_KINDS }).notNull(),
    recipient: text("recipient"),
    bounceType: text("bounce_type", { enum: BOUNCE_TYPES }),
    /** The enhanced status code (`5.1.1`) and the SMTP reply code (`550`), when the report gives them. */
    statusCode: text("status_code"),
    replyCode: text("reply_code"),
    diagnostic: text("diagnostic"),
    reportingMta: text("reporting_mta"),
    action: text("action", { enum: MAIL_REPORT_ACTIONS }).notNull(),
    /** JSON: per recipient, the address, action, status code, diagnostic and what it counted as. */
    detail: text("detail").notNull(),
    mailFrom: text("mail_from").notNull(),
    rcptTo: text("rcpt_to").notNull(),
    /** The report's own Message-ID. */
    messageId: text("message_id"),
    rawKey: text("raw_key").notNull(),
    rawSize: integer("raw_size").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("mail_reports_created").on(t.createdAt),
    // The list's filters; each index ends in the rowid, which breaks ties in the newest-first order.
    index("mail_reports_account_created").on(t.accountId, t.createdAt),
    index("mail_reports_account_kind").on(t.accountId, t.kind, t.createdAt),
    index("mail_reports_account_email").on(t.accountId, t.emailId, t.createdAt),
    index("mail_reports_account_recipient").on(t.accountId, t.recipient, t.createdAt),
    uniqueIndex("mail_reports_public_id").on(t.publicId),
  ],
);
