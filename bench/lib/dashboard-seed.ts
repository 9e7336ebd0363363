/**
 * What the dashboard benchmark needs beside the tickets of `seedTicketWorkspace`: request logs and
 * a signed-in owner. Both are written straight into the local D1 databases (`executeSql`; the logs into LOGS),
 * the session exactly as POST /login/{token} stores one (the SHA-256 of a random token), so the
 * pages are measured as a person's browser asks for them.
 */

import { executeSql } from "../../scripts/lib/sql";
import { sqlText } from "../../scripts/lib/wrangler";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import { countLogs, logAccount, logKey, numberAccountSql, removeLogs } from "./logs-seed";

const HOUR_MS = 3_600_000;

/** The path of seeded request log n: the pages under test must show some of them. */
export const SEEDED_LOG_PATH = "/v1/bench-seed/";

interface Owner {
  accountId: string;
  ownerId: string;
}

/**
 * A day's session for the owner, stored as POST /login/{token} stores one (`sql` for DB,
 * `directorySql` naming it in the directory, run first), and its cookie value.
 */
async function sessionSql(workspace: Owner, now: number) {
  const token = randomBase64Url(32);
  const hash = sqlText(await sha256Hex(token));
  const account = sqlText(workspace.accountId);
  const expiresAt = now + 86_400_000;
  const sql = `INSERT INTO sessions (token_hash, account_id, user_id, expires_at, created_at) VALUES (${hash}, ${account}, ${sqlText(workspace.ownerId)}, ${expiresAt}, ${now});`;
  const directorySql = `INSERT INTO session_hashes (token_hash, account_id, expires_at) VALUES (${hash}, ${account}, ${expiresAt});`;
  return { token, sql, directorySql };
}

async function writeSession(session: { sql: string; directorySql: string }) {
  await executeSql(session.directorySql, "local", "DIRECTORY");
  await executeSql(session.sql, "local");
}

/**
 * `count` request logs of the workspace's admin key over the last hour (well inside the default
 * 7-day retention), mostly 200s with some 201, 404 and 429, and a session for its owner. Answers
 * the session's cookie value and how long writing took.
 */
export async function seedLogsAndSession(workspace: Owner, count: number) {
  const now = Date.now();
  const session = await sessionSql(workspace, now);
  const account = sqlText(workspace.accountId);
  const [keys] = await executeSql(
    `SELECT id, key_prefix FROM api_keys WHERE account_id = ${account} ORDER BY created_at LIMIT 1;`,
    "local",
  );
  const key = { id: String(keys?.results[0]?.id), prefix: String(keys?.results[0]?.key_prefix) };
  const logs = [
    ...numberAccountSql(workspace.accountId, [key]),
    `INSERT INTO log_agents (user_agent, last_used_at) VALUES ('bench/1.0', ${now + HOUR_MS})
ON CONFLICT (user_agent) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at);`,
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})
INSERT INTO request_logs (account, key, agent, request_id, method, path, status, duration_ms, ip, error_code, created_at)
SELECT ${logAccount(workspace.accountId)}, ${logKey(key.id)}, (SELECT n FROM log_agents WHERE user_agent = 'bench/1.0'), randomblob(16),
  CASE WHEN n % 5 = 0 THEN 'POST' ELSE 'GET' END, '${SEEDED_LOG_PATH}' || n,
  CASE WHEN n % 50 = 0 THEN 429 WHEN n % 20 = 0 THEN 404 WHEN n % 5 = 0 THEN 201 ELSE 200 END,
  n % 90 + 3, '127.0.0.1',
  CASE WHEN n % 50 = 0 THEN 'rate_limited' WHEN n % 20 = 0 THEN 'not_found' ELSE NULL END,
  ${now - HOUR_MS} + (n * ${HOUR_MS}) / ${count}
FROM seq;`,
  ];
  const started = performance.now();
  await executeSql(logs.join("\n"), "local", "LOGS");
  await writeSession(session);
  const seconds = (performance.now() - started) / 1000;
  const stored = await countLogs(workspace.accountId);
  if (stored !== count)
    throw new Error(`seeding request logs: expected ${count}, the database holds ${stored}`);
  return { sessionToken: session.token, seconds };
}

/** A signed-in owner alone, for pages whose rows come from another seed; answers the cookie value. */
export async function seedSession(workspace: Owner): Promise<string> {
  const session = await sessionSql(workspace, Date.now());
  await writeSession(session);
  return session.token;
}

/** Deletes the seeded request logs and the session again (the account and its key stay). */
export async function removeLogsAndSessions(accountId: string): Promise<void> {
  await removeLogs([accountId]);
  await executeSql(`DELETE FROM sessions WHERE account_id = ${sqlText(accountId)};`, "local");
  await executeSql(
    `DELETE FROM session_hashes WHERE account_id = ${sqlText(accountId)};`,
    "local",
    "DIRECTORY",
  );
}
