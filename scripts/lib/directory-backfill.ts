import { executeSql, sqlText, type Target } from "./wrangler";

/** Rows per INSERT statement, well under D1's statement size and bound-parameter limits. */
const CHUNK = 200;

const values = (rows: Array<Record<string, unknown>>, columns: string[]) =>
  rows.map((row) => `(${columns.map((c) => sqlText(String(row[c]))).join(", ")})`).join(", ");

function copy(target: Target, readSql: string, table: string, columns: string[]): number {
  const [read] = executeSql(readSql, target);
  const rows = read?.results ?? [];
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    statements.push(
      `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES ${values(rows.slice(i, i + CHUNK), columns)};`,
    );
  }
  if (statements.length > 0) executeSql(statements.join("\n"), target, "DIRECTORY");
  return rows.length;
}

/** What the backfill named, per directory table (rows read from DB; those already named stay). */
export interface Backfilled {
  workspaces: number;
  keys: number;
  sessions: number;
  signInLinks: number;
  invitations: number;
  memberEmails: number;
  inboxes: number;
}

/**
 * Names in the directory every workspace of `DB`, and what it holds that is found before its
 * workspace is known, that the directory does not name yet: the workspaces made before there was
 * a directory all live in `DB`. API keys, unexpired sessions and sign-in links, pending
 * invitations' links, every user's email and every inbox address. Idempotent (INSERT OR IGNORE), so `npm start` runs it
 * at every start and `npm run deploy` before and after the Worker it deploys begins to read the
 * directory.
 */
export function backfillDirectory(target: Target, now = Date.now()): Backfilled {
  const workspaces = copy(
    target,
    "SELECT id AS account_id, 'DB' AS shard, created_at FROM accounts;",
    "workspaces",
    ["account_id", "shard", "created_at"],
  );
  const keys = copy(target, "SELECT token_hash, account_id FROM api_keys;", "key_hashes", [
    "token_hash",
    "account_id",
  ]);
  const tokenColumns = ["token_hash", "account_id", "expires_at"];
  const unexpired = (table: string, where = "") =>
    `SELECT token_hash, account_id, expires_at FROM ${table} WHERE expires_at > ${Math.trunc(now)}${where};`;
  const sessions = copy(target, unexpired("sessions"), "session_hashes", tokenColumns);
  const signInLinks = copy(
    target,
    unexpired("login_tokens", " AND used_at IS NULL"),
    "sign_in_hashes",
    tokenColumns,
  );
  const invitations = copy(
    target,
    unexpired("invitations", " AND status = 'pending'"),
    "invitation_hashes",
    tokenColumns,
  );
  const memberEmails = copy(target, "SELECT email, account_id FROM users;", "member_emails", [
    "email",
    "account_id",
  ]);
  // An address already claimed (by this inbox, or by a claim made since) keeps its claim.
  const inboxes = copy(
    target,
    "SELECT lower(email_address) AS address, account_id, id AS inbox_id, updated_at AS claimed_at FROM inboxes;",
    "inbox_addresses",
    ["address", "account_id", "inbox_id", "claimed_at"],
  );
  return { workspaces, keys, sessions, signInLinks, invitations, memberEmails, inboxes };
}
