import { blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The LOGS database: request logs only, apart from the tickets and mail in DB, so logs can never
 * fill that database and can be pruned, resized or replaced on their own. A log row is the
 * high-volume one, so it carries small integers where text repeats: accounts and keys are
 * numbered once in `log_accounts` and `log_keys`, and the row's own id is its rowid. Cross-database
 * references have no foreign keys: the retention prune removes the logs of deleted accounts.
 */

/** The accounts that have logs, each numbered once, with the retention the prune last read from DB. */
export const logAccounts = sqliteTable("log_accounts", {
  n: integer("n").primaryKey(),
  id: text("id").notNull().unique(),
  retentionSeconds: integer("retention_seconds").notNull(),
  /** When the first log arrived: the prune only treats as deleted an account it could have read. */
  createdAt: integer("created_at").notNull(),
});

/** The keys that made requests, each numbered once, with the prefix a log shows (derived from the key). */
export const logKeys = sqliteTable(
  "log_keys",
  {
    n: integer("n").primaryKey(),
    account: integer("account").notNull(),
    id: text("id").notNull().unique(),
    prefix: text("prefix"),
  },
  (t) => [index("log_keys_account").on(t.account)],
);

/**
 * The user agents requests came with, each stored once: a browser's is ~120 bytes, more than the
 * rest of a log row. `last_used_at` is an hour boundary at or after the newest log that names the
 * agent (rounded so a batch rewrites it at most hourly); once every log left is younger, no log
 * uses the agent and the retention prune removes it.
 */
export const logAgents = sqliteTable(
  "log_agents",
  {
    n: integer("n").primaryKey(),
    userAgent: text("user_agent").notNull().unique(),
    lastUsedAt: integer("last_used_at").notNull(),
  },
  (t) => [index("log_agents_last_used").on(t.lastUsedAt)],
);

/**
 * One finished /v1 request. `request_id` is the 16 bytes of the ULID in `req_<ULID>` (the prefix
 * is the same for all); `key` is 0 for a request without a key; `agent` numbers the user agent
 * in `log_agents` (null without one). Every index ends in the rowid,
 * so the list's order (created_at, then rowid, both descending) is walked, not sorted.
 */
export const requestLogs = sqliteTable(
  "request_logs",
  {
    n: integer("n").primaryKey(),
    account: integer("account").notNull(),
    key: integer("key").notNull(),
    requestId: blob("request_id", { mode: "buffer" }).notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    ip: text("ip"),
    errorCode: text("error_code"),
    createdAt: integer("created_at").notNull(),
    agent: integer("agent"),
  },
  // One index per filter the list offers (none, status, key, key and status).
  (t) => [
    index("request_logs_account_created").on(t.account, t.createdAt),
    index("request_logs_account_status_created").on(t.account, t.status, t.createdAt),
    index("request_logs_account_key_created").on(t.account, t.key, t.createdAt),
    index("request_logs_account_key_status_created").on(t.account, t.key, t.status, t.createdAt),
  ],
);

/**
 * How many logs each account has per (key, status), kept by triggers on `request_logs` (inserts,
 * retention and account deletes), so the list's `total` sums a few counter rows.
 */
export const requestLogCounts = sqliteTable(
  "request_logs_counts",
  {
    account: integer("account").notNull(),
    key: integer("key").notNull(),
    status: integer("status").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.account, t.key, t.status] })],
);
