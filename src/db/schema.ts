import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Timestamps are epoch milliseconds (integers sort and compare cheaply in indexes); the API shows
 * them as ISO 8601. Public fields are mapped to DTOs in each feature's `*.dto.ts`, never here.
 */
const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
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
  defaultTrackOpens: integer("default_track_opens", { mode: "boolean" }).notNull().default(false),
  defaultTrackClicks: integer("default_track_clicks", { mode: "boolean" }).notNull().default(false),
  /** JSON object of per-quota limits that replace the plan's (enterprise contracts, tests). */
  quotaOverrides: text("quota_overrides").notNull().default("{}"),
  createdAt: integer("created_at").notNull().default(now),
  updatedAt: integer("updated_at").notNull().default(now),
});

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

export const requestLogs = sqliteTable(
  "request_logs",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    keyId: text("key_id"),
    keyPrefix: text("key_prefix"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    errorCode: text("error_code"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("request_logs_account_created").on(t.accountId, t.createdAt, t.id),
    index("request_logs_account_status_created").on(t.accountId, t.status, t.createdAt, t.id),
    index("request_logs_account_key_created").on(t.accountId, t.keyId, t.createdAt, t.id),
  ],
);

/**
 * Counters behind plan quotas, one row per account, metric and window (for example the hour that
 * starts at `window_start`). Writers increment them with conditional upserts so that concurrent
 * requests never overshoot a limit.
 */
export const usageCounters = sqliteTable(
  "usage_counters",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    metric: text("metric").notNull(),
    windowStart: integer("window_start").notNull(),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.metric, t.windowStart] })],
);
