import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

export const suppressions = sqliteTable(
  "suppressions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    reason: text("reason", { enum: ["hard_bounce", "complaint", "soft_bounces", "manual"] }).notNull(),
    sourceEmailId: text("source_email_id"),
    detail: text("detail"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("suppressions_account_email").on(t.accountId, t.email),
    index("suppressions_account_created").on(t.accountId, t.createdAt, t.id),
  ],
);

/** Bounces and complaints per recipient; three soft ones within 7 days suppress the address. */
export const bounces = sqliteTable(
  "bounces",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    kind: text("kind", { enum: ["hard", "soft", "complaint"] }).notNull(),
    emailId: text("email_id"),
    detail: text("detail"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("bounces_account_email_created").on(t.accountId, t.email, t.createdAt),
    // The prune (jobs/prune-bounces.ts): a workspace's bounces, oldest first.
    index("bounces_account_created").on(t.accountId, t.createdAt),
    // The email report counts an email once per kind: its first bounce of that kind, whoever it was for.
    index("bounces_email_kind").on(t.emailId, t.kind),
    // One soft bounce per email and recipient, however often the email is retried: a greylisting
    // host that defers every attempt must not reach the three-soft-bounce rule with one email.
    uniqueIndex("bounces_soft_once")
      .on(t.emailId, t.email)
      .where(sql`kind = 'soft' AND email_id IS NOT NULL`),
  ],
);
