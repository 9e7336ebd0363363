import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
 * For operators: the bytes stay in R2 under `raw_key`, so nothing received is lost silently. Not
 * counted in the workspace's storage and not listed by the API.
 */
export const droppedMail = sqliteTable(
  "dropped_mail",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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
    index("dropped_mail_account_created").on(t.accountId, t.createdAt),
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

/**
 * Every bounce (RFC 3464) and complaint (RFC 5965) report received, matched or not, for operators;
 * the bytes stay in R2 under `raw_key`. `account_id` and `email_id` are set when the report names
 * an email of ours. Not counted in any workspace's storage and not listed by the API: what a report
 * changes shows on the email itself (`GET /v1/emails/{id}`) and in the suppressions.
 */
export const mailReports = sqliteTable(
  "mail_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    emailId: text("email_id"),
    type: text("type", { enum: REPORT_TYPES }),
    outcome: text("outcome", { enum: REPORT_OUTCOMES }).notNull(),
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
    index("mail_reports_account_created").on(t.accountId, t.createdAt),
    index("mail_reports_email").on(t.emailId),
  ],
);
