import { executeSql } from "./sql";
import { sqlText, type Target } from "./wrangler";

/** Rows per INSERT statement, well under D1's statement size and bound-parameter limits. */
const CHUNK = 200;

const values = (rows: Array<Record<string, unknown>>, columns: string[]) =>
  rows.map((row) => `(${columns.map((c) => sqlText(String(row[c]))).join(", ")})`).join(", ");

/** One directory table filled from rows of `DB`: the read, and the columns it copies. */
interface Copy {
  read: string;
  table: string;
  columns: string[];
}

/**
 * Every copy's read in one execution and every write in one more (each is a local runtime or a
 * remote call of its own): answers how many rows each copy read.
 */
async function copyAll<K extends string>(
  target: Target,
  copies: Record<K, Copy>,
): Promise<Record<K, number>> {
  const entries = Object.entries(copies) as Array<[K, Copy]>;
  const reads = await executeSql(entries.map(([, copy]) => copy.read).join("\n"), target);
  const statements: string[] = [];
  const counts = entries.map(([name, { table, columns }], index) => {
    const rows = reads[index]?.results ?? [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      statements.push(
        `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES ${values(rows.slice(i, i + CHUNK), columns)};`,
      );
    }
    return [name, rows.length] as const;
  });
  if (statements.length > 0) await executeSql(statements.join("\n"), target, "DIRECTORY");
  return Object.fromEntries(counts) as Record<K, number>;
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
export function backfillDirectory(target: Target, now = Date.now()): Promise<Backfilled> {
  const tokenColumns = ["token_hash", "account_id", "expires_at"];
  const unexpired = (table: string, where = "") =>
    `SELECT token_hash, account_id, expires_at FROM ${table} WHERE expires_at > ${Math.trunc(now)}${where};`;
  return copyAll(target, {
    workspaces: {
      read: "SELECT id AS account_id, 'DB' AS shard, created_at FROM accounts;",
      table: "workspaces",
      columns: ["account_id", "shard", "created_at"],
    },
    keys: {
      read: "SELECT token_hash, account_id FROM api_keys;",
      table: "key_hashes",
      columns: ["token_hash", "account_id"],
    },
    sessions: { read: unexpired("sessions"), table: "session_hashes", columns: tokenColumns },
    signInLinks: {
      read: unexpired("login_tokens", " AND used_at IS NULL"),
      table: "sign_in_hashes",
      columns: tokenColumns,
    },
    invitations: {
      read: unexpired("invitations", " AND status = 'pending'"),
      table: "invitation_hashes",
      columns: tokenColumns,
    },
    memberEmails: {
      read: "SELECT email, account_id FROM users;",
      table: "member_emails",
      columns: ["email", "account_id"],
    },
    inboxes: {
      // An address already claimed (by this inbox, or by a claim made since) keeps its claim.
      read: "SELECT lower(email_address) AS address, account_id, id AS inbox_id, updated_at AS claimed_at FROM inboxes;",
      table: "inbox_addresses",
      columns: ["address", "account_id", "inbox_id", "claimed_at"],
    },
  });
}
