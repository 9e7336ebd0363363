import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Timestamps are epoch milliseconds (integers sort and compare cheaply in indexes); the API shows
 * them as ISO 8601. Public fields are mapped to DTOs in each feature's `*.dto.ts`, never here.
 */
const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    /**
     * The workspace's number, for high-volume tables' indexes (emails and their recipients and
     * tags), where the 30-character id would repeat in every entry. Given on insert by a trigger
     * (migration 0031), one more than the highest.
     */
    seq: integer("seq"),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "starter", "pro", "enterprise"] })
      .notNull()
      .default("free"),
    status: text("status", { enum: ["active", "suspended"] })
      .notNull()
      .default("active"),
    ticketPrefix: text("ticket_prefix").notNull().default("TKT"),
    ticketSequence: integer("ticket_sequence").notNull().default(0),
    requestLogRetention: text("request_log_retention").notNull().default("7d"),
    requestLogRetentionSeconds: integer("request_log_retention_seconds").notNull().default(604_800),
    /**
     * Days of email history the workspace keeps, at most its plan's (lib/email-retention.ts); null
     * keeps the plan's maximum, whichever plan the workspace is on.
     */
    emailRetentionDays: integer("email_retention_days"),
    defaultTrackOpens: integer("default_track_opens", { mode: "boolean" }).notNull().default(false),
    defaultTrackClicks: integer("default_track_clicks", { mode: "boolean" }).notNull().default(false),
    /** JSON object of per-quota limits that replace the plan's (enterprise contracts, tests). */
    quotaOverrides: text("quota_overrides").notNull().default("{}"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [uniqueIndex("accounts_seq").on(t.seq)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    /** SHA-256 of the token, hex. The token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    permission: text("permission", { enum: ["read", "write", "admin"] }).notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    lastUsedAt: integer("last_used_at"),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("api_keys_account_created").on(t.accountId, t.createdAt, t.id)],
);

/**
 * Usage behind the accumulating plan quotas, one row per account. Email counts carry the start
 * of their window; a writer that finds an older start counts from zero. One conditional UPDATE
 * reserves a send against all three email windows at once, so concurrent sends cannot overshoot.
 */
export const accountUsage = sqliteTable("account_usage", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  monthStart: integer("month_start").notNull().default(0),
  emailsMonth: integer("emails_month").notNull().default(0),
  dayStart: integer("day_start").notNull().default(0),
  emailsDay: integer("emails_day").notNull().default(0),
  hourStart: integer("hour_start").notNull().default(0),
  emailsHour: integer("emails_hour").notNull().default(0),
  storageBytes: integer("storage_bytes").notNull().default(0),
  teamMembers: integer("team_members").notNull().default(0),
});
