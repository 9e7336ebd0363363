import { LOGIN_TTL_MS, loginLink } from "../../src/features/sessions/login-link";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { readDevVar } from "./dev-vars";
import { executeSql } from "./sql";
import { sqlText, type Target } from "./wrangler";

/** The development workspace's first person; any address works, mail is captured locally. */
export const DEFAULT_OWNER_EMAIL = "owner@example.com";

/** The directory's row naming a member's (lowercase) email in a workspace (src/db/directory/member-emails.ts). */
export const memberEmailSql = (email: string, accountId: string) =>
  `INSERT OR IGNORE INTO member_emails (email, account_id) VALUES (${sqlText(email.trim().toLowerCase())}, ${sqlText(accountId)});`;

/**
 * The SQL that creates a workspace's owner (`sql`, for its shard), the directory's row naming the
 * owner's email (`directorySql`, run first), and the owner's id.
 */
export function ownerSql(accountId: string, email: string, now: number) {
  const userId = newId("usr");
  const sql = `INSERT INTO users (id, account_id, email, name, role, status, created_at, updated_at) VALUES (${sqlText(userId)}, ${sqlText(accountId)}, ${sqlText(email.trim().toLowerCase())}, 'Owner', 'owner', 'active', ${now}, ${now});`;
  return { userId, sql, directorySql: memberEmailSql(email, accountId) };
}

/**
 * A fresh one-time sign-in link (15 minutes) for a user, as POST /login would email it: only the
 * token's SHA-256 is stored. Answers the SQL for the workspace's shard, the directory's row naming
 * the link (run first), and the link.
 */
export async function loginLinkSql(accountId: string, userId: string, baseUrl: string, now = Date.now()) {
  const token = randomBase64Url(32);
  const hash = sqlText(await sha256Hex(token));
  const expiresAt = now + LOGIN_TTL_MS;
  const sql = `INSERT INTO login_tokens (token_hash, account_id, user_id, expires_at, created_at) VALUES (${hash}, ${sqlText(accountId)}, ${sqlText(userId)}, ${expiresAt}, ${now});`;
  const directorySql = `INSERT OR IGNORE INTO sign_in_hashes (token_hash, account_id, expires_at) VALUES (${hash}, ${sqlText(accountId)}, ${expiresAt});`;
  return { sql, directorySql, url: loginLink(baseUrl, token) };
}

/** Writes a fresh sign-in link for the user (named in the directory first) and answers it. */
export async function freshLoginLink(
  accountId: string,
  userId: string,
  baseUrl: string,
  target: Target,
  shard: string,
) {
  const link = await loginLinkSql(accountId, userId, baseUrl);
  await executeSql(link.directorySql, target, "DIRECTORY");
  await executeSql(link.sql, target, shard);
  return link.url;
}

/** Whether the user exists and is active (the saved development owner may predate a reset). */
export async function userIsActive(userId: string, target: Target, shard: string): Promise<boolean> {
  const [statement] = await executeSql(
    `SELECT status FROM users WHERE id = ${sqlText(userId)};`,
    target,
    shard,
  );
  return statement?.results[0]?.status === "active";
}

/**
 * The origin sign-in links point at: PUBLIC_BASE_URL from the environment or .dev.vars, else the
 * local server on `port`. A deployed database needs the deployment's origin in PUBLIC_BASE_URL.
 */
export function signInBaseUrl(target: Target, port: number): string {
  const configured =
    process.env.PUBLIC_BASE_URL || (target === "local" ? readDevVar("PUBLIC_BASE_URL") : undefined);
  if (configured) return configured;
  if (target === "remote")
    throw new Error("--remote needs PUBLIC_BASE_URL (the deployment's origin) for the sign-in link.");
  return `http://127.0.0.1:${port}`;
}
