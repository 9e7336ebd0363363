import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

export const USER_ROLES = ["owner", "admin", "agent"] as const;
export const USER_STATUSES = ["active", "disabled"] as const;
/**
 * A `pending` invitation past `expires_at` is expired whatever is stored; it is stored as `expired`
 * when a new invitation of the same email replaces it (one pending invitation per email).
 */
export const INVITATION_STATES = ["pending", "accepted", "revoked", "expired"] as const;

/** The people of a workspace. `email` is kept lowercase, so uniqueness ignores letter case. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name"),
    role: text("role", { enum: USER_ROLES }).notNull(),
    status: text("status", { enum: USER_STATUSES }).notNull().default("active"),
    lastLoginAt: integer("last_login_at"),
    /** False while the person is away: assignment rules pass them over (docs/assignment.md). */
    available: integer("available", { mode: "boolean" }).notNull().default(true),
    /** The most open tickets assignment rules give them; null: no limit. */
    capacity: integer("capacity"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("users_account_email").on(t.accountId, t.email),
    index("users_account_created").on(t.accountId, t.createdAt, t.id),
    // Sign-in looks a person up by email across workspaces.
    index("users_email").on(t.email),
  ],
);

export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull(),
    status: text("status", { enum: INVITATION_STATES }).notNull().default("pending"),
    /** SHA-256 of the link's token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: integer("expires_at").notNull(),
    /** Who invited: the API key id, or the user id once the dashboard invites. */
    invitedBy: text("invited_by").notNull(),
    acceptedAt: integer("accepted_at"),
    /** Resends so far (capped); the last email left at `updated_at`, which the resend cooldown reads. */
    resendCount: integer("resend_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // One pending invitation per email and workspace, even under concurrent requests.
    uniqueIndex("invitations_account_email_pending").on(t.accountId, t.email).where(sql`status = 'pending'`),
    index("invitations_account_created").on(t.accountId, t.createdAt, t.id),
    index("invitations_account_status_created").on(t.accountId, t.status, t.createdAt, t.id),
  ],
);

/** Invitation emails (new and resent) a workspace had sent per UTC hour: the hourly limit's counter. */
export const invitationMailCounts = sqliteTable(
  "invitation_mail_counts",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    hourStart: integer("hour_start").notNull(),
    sent: integer("sent").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.hourStart] })],
);

/** One-time sign-in links (15 minutes). */
export const loginTokens = sqliteTable(
  "login_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("login_tokens_user").on(t.userId), index("login_tokens_expires").on(t.expiresAt)],
);

/** Dashboard sessions (14 days). */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId), index("sessions_expires").on(t.expiresAt)],
);

/**
 * Recent sign-in attempts, for the per-email and per-IP rate limits; the public portal's form posts
 * are counted here too, under keys of their own scope (src/features/sessions/rate-limit.ts). Both keys are
 * SHA-256 hashes: the table holds nothing personal in the clear. Rows older than the window are
 * pruned on write.
 */
export const signInAttempts = sqliteTable(
  "sign_in_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    emailHash: text("email_hash"),
    ipHash: text("ip_hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("sign_in_attempts_email").on(t.emailHash, t.createdAt),
    index("sign_in_attempts_ip").on(t.ipHash, t.createdAt),
    index("sign_in_attempts_created").on(t.createdAt),
  ],
);
