/**
 * Request logs written straight into the local LOGS database, as the queue consumer writes them:
 * the account and its keys numbered once (log_accounts, log_keys), each log referring to them.
 */
import { executeSql } from "../../scripts/lib/sql";
import { sqlText } from "../../scripts/lib/wrangler";

const WEEK_SECONDS = 604_800;

/** The number LOGS gives the account, as SQL. */
export const logAccount = (accountId: string) =>
  `(SELECT n FROM log_accounts WHERE id = ${sqlText(accountId)})`;
/** The number LOGS gives the key, as SQL. */
export const logKey = (keyId: string) => `(SELECT n FROM log_keys WHERE id = ${sqlText(keyId)})`;

/** Statements that number the account and its keys (the default retention: a week). */
export function numberAccountSql(
  accountId: string,
  keys: Array<{ id: string; prefix: string | null }>,
): string[] {
  return [
    `INSERT OR IGNORE INTO log_accounts (id, retention_seconds, created_at) VALUES (${sqlText(accountId)}, ${WEEK_SECONDS}, ${Date.now()});`,
    ...keys.map(
      (key) =>
        `INSERT OR IGNORE INTO log_keys (account, id, prefix) VALUES (${logAccount(accountId)}, ${sqlText(key.id)}, ${key.prefix === null ? "NULL" : sqlText(key.prefix)});`,
    ),
  ];
}

/** How many logs the account has in LOGS. */
export async function countLogs(accountId: string): Promise<number> {
  const [row] = await executeSql(
    `SELECT count(*) AS n FROM request_logs WHERE account = ${logAccount(accountId)};`,
    "local",
    "LOGS",
  );
  return Number(row?.results[0]?.n ?? 0);
}

/** Deletes the accounts' logs (the counters follow by trigger); their numbers stay for the next run. */
export async function removeLogs(accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await executeSql(
    accountIds.map((id) => `DELETE FROM request_logs WHERE account = ${logAccount(id)};`).join("\n"),
    "local",
    "LOGS",
  );
}
