import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/** Sending (and receiving) domains. The DKIM private key is stored encrypted (AES-GCM). */
export const connections = sqliteTable(
  "connections",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    status: text("status", { enum: ["pending", "verified", "failed"] })
      .notNull()
      .default("pending"),
    dkimSelector: text("dkim_selector").notNull(),
    dkimPublicKey: text("dkim_public_key").notNull(),
    dkimPrivateKeyEncrypted: text("dkim_private_key_encrypted").notNull(),
    /** JSON: the outcome of each DNS record at the last verification. */
    checks: text("checks").notNull().default("[]"),
    lastCheckedAt: integer("last_checked_at"),
    verifiedAt: integer("verified_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("connections_account_domain").on(t.accountId, t.domain),
    index("connections_account_created").on(t.accountId, t.createdAt, t.id),
  ],
);
