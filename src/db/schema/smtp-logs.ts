import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * One row per thing that happened in an SMTP relay session: a message (accepted or refused), a
 * failed AUTH, or a session that ended without either. `account_id` is null when the presented
 * password matched no key at all; such rows are for operators and are never listed by the API.
 */
export const smtpLogs = sqliteTable(
  "smtp_logs",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    /** Groups the rows of one connection; chosen by the relay. */
    sessionId: text("session_id").notNull(),
    keyId: text("key_id"),
    keyPrefix: text("key_prefix"),
    clientIp: text("client_ip").notNull(),
    /** The TLS protocol in use (`TLSv1.3`), or null for a plaintext session. */
    tls: text("tls"),
    auth: text("auth", { enum: ["none", "succeeded", "failed"] }).notNull(),
    mailFrom: text("mail_from"),
    /** JSON array of the envelope recipients. */
    rcptTo: text("rcpt_to").notNull().default("[]"),
    size: integer("size"),
    outcome: text("outcome").notNull(),
    replyCode: integer("reply_code").notNull(),
    reply: text("reply").notNull(),
    emailId: text("email_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("smtp_logs_account_created").on(t.accountId, t.createdAt, t.id)],
);
