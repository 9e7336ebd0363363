import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The directory database (binding `DIRECTORY`): only what must be found before the workspace is
 * known, or must be unique across every workspace, each pointing at the workspace it belongs to;
 * and where each workspace lives. Everything else of a workspace is in its shard. Every read and
 * write of these tables goes through src/directory/. A row here is an index entry, never the record
 * itself: the record (the key, the inbox) is in the workspace's shard, so a row whose record is gone
 * answers nothing, and the lookup that finds it checks the record there.
 */

/** Where each workspace's rows live: the D1 binding of its shard. */
export const workspaces = sqliteTable("workspaces", {
  accountId: text("account_id").primaryKey(),
  /** The shard's binding name in wrangler.toml (`DB` so far). */
  shard: text("shard").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** API keys: the SHA-256 of a token → its workspace (the key guard's first read). */
export const keyHashes = sqliteTable("key_hashes", {
  tokenHash: text("token_hash").primaryKey(),
  accountId: text("account_id").notNull(),
});

/**
 * A one-time token's hash → its workspace, until the token expires: what a dashboard session, a
 * sign-in link and an invitation link are found by before their workspace is known. The expiry is
 * the record's own (the shard still checks it); it lets the minute cron prune what no one can use.
 */
const tokenHashTable = (name: string) =>
  sqliteTable(
    name,
    {
      tokenHash: text("token_hash").primaryKey(),
      accountId: text("account_id").notNull(),
      expiresAt: integer("expires_at").notNull(),
    },
    (t) => [index(`${name}_expires`).on(t.expiresAt)],
  );

/** Dashboard sessions: the SHA-256 of a session cookie's token. */
export const sessionHashes = tokenHashTable("session_hashes");

/** Sign-in links (`/login/{token}`): the SHA-256 of the link's token. */
export const signInHashes = tokenHashTable("sign_in_hashes");

/** Invitation links (`/invitations/{token}`): the SHA-256 of the link's token (a resend replaces it). */
export const invitationHashes = tokenHashTable("invitation_hashes");

/**
 * Every workspace a person (a user, by lowercase email) belongs to: where POST /login looks for
 * the people to send a link to. The user's record (status, role) is in the workspace's shard.
 */
export const memberEmails = sqliteTable(
  "member_emails",
  {
    email: text("email").notNull(),
    accountId: text("account_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.accountId] })],
);

/**
 * Inbox addresses (lowercase) → the inbox and its workspace: inbound mail is routed by them, and
 * the primary key makes each unique across the service. `claimed_at` tells a claim still being
 * written to its shard from one a crash left behind (inbox-addresses.ts). By inbox id for the
 * public contact form, which knows only the inbox.
 */
export const inboxAddresses = sqliteTable(
  "inbox_addresses",
  {
    address: text("address").primaryKey(),
    accountId: text("account_id").notNull(),
    inboxId: text("inbox_id").notNull(),
    claimedAt: integer("claimed_at").notNull(),
  },
  (t) => [index("inbox_addresses_inbox_id").on(t.inboxId)],
);

/**
 * A workspace being moved to another shard (src/db/directory/workspace-moves.ts): at most one move
 * per workspace, from the shard `workspaces` names to `to_shard`. `step` is where the command is,
 * `cursor` where its copy or deletion stands (JSON). `frozen_until`, renewed by every step, is the
 * freeze's end: while it is in the future the workspace's writes are refused (503), and one not
 * renewed ends by itself, leaving the workspace on its shard. `sealed` is the workspace's status,
 * kept while its rows on the shard being left are set inert (`moving`) just before the switch.
 */
export const workspaceMoves = sqliteTable("workspace_moves", {
  accountId: text("account_id").primaryKey(),
  fromShard: text("from_shard").notNull(),
  toShard: text("to_shard").notNull(),
  step: text("step").notNull(),
  cursor: text("cursor").notNull().default("{}"),
  frozenUntil: integer("frozen_until"),
  sealed: text("sealed"),
  startedAt: integer("started_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
