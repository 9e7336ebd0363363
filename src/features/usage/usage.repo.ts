import { eq, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { accountUsage } from "../../db/schema";

export type UsageRow = typeof accountUsage.$inferSelect;

export async function findUsage(db: Db, accountId: string): Promise<UsageRow | null> {
  const rows = await db.select().from(accountUsage).where(eq(accountUsage.accountId, accountId)).limit(1);
  return rows[0] ?? null;
}

export interface EmailWindows {
  month: number;
  day: number;
  hour: number;
}

/** A limit: a number, null for unlimited, or SQL that yields either (read from the account row as a batch runs). */
type Limit = number | null | SQL;

export interface UsageLimits {
  month: Limit;
  day: Limit;
  hour: Limit;
  storage: Limit;
}

/** What one write adds: emails to the current windows, bytes to storage. */
export interface UsageAmounts {
  emails: number;
  bytes: number;
}

/**
 * The account_usage totals after adding `amounts`: a window that is no longer current counts from
 * 0. Unqualified columns of account_usage, for a statement whose FROM (or UPDATE) is that row.
 */
function totalsAfter(amounts: UsageAmounts, windows: EmailWindows) {
  const { emails: count, bytes } = amounts;
  return {
    month: sql`(CASE WHEN month_start = ${windows.month} THEN emails_month ELSE 0 END + ${count})`,
    day: sql`(CASE WHEN day_start = ${windows.day} THEN emails_day ELSE 0 END + ${count})`,
    hour: sql`(CASE WHEN hour_start = ${windows.hour} THEN emails_hour ELSE 0 END + ${count})`,
    storage: sql`(storage_bytes + ${bytes})`,
  };
}

/** SQL: adding `amounts` to the account_usage row in scope keeps every total within its limit. */
export function usageRoom(amounts: UsageAmounts, windows: EmailWindows, limits: UsageLimits): SQL {
  const { emails: count, bytes } = amounts;
  const after = totalsAfter(amounts, windows);
  return sql`(${count} = 0 OR ${limits.month} IS NULL OR ${after.month} <= ${limits.month})
        AND (${count} = 0 OR ${limits.day} IS NULL OR ${after.day} <= ${limits.day})
        AND (${count} = 0 OR ${limits.hour} IS NULL OR ${after.hour} <= ${limits.hour})
        AND (${bytes} = 0 OR ${limits.storage} IS NULL OR ${after.storage} <= ${limits.storage})`;
}

/** `UPDATE account_usage SET` every total to its value after `amounts`, rolling windows over. */
function addUsage(accountId: string, amounts: UsageAmounts, windows: EmailWindows, condition: SQL) {
  const after = totalsAfter(amounts, windows);
  return sql`
      UPDATE account_usage SET
        emails_month = ${after.month}, month_start = ${windows.month},
        emails_day = ${after.day}, day_start = ${windows.day},
        emails_hour = ${after.hour}, hour_start = ${windows.hour},
        storage_bytes = ${after.storage}
      WHERE account_id = ${accountId} AND ${condition}`;
}

/**
 * Adds `emails` to the account's month, day and hour windows and `bytes` to its storage only if
 * every total stays within its limit, in one statement (SET reads the old row, so the checks and
 * the increments see the same values). Answers whether the reservation was made.
 */
export async function reserveUsage(
  db: Db,
  accountId: string,
  amounts: UsageAmounts,
  windows: EmailWindows,
  limits: UsageLimits,
): Promise<boolean> {
  const [, updated] = await runBatch(db, [
    db.insert(accountUsage).values({ accountId }).onConflictDoNothing(),
    sql`${addUsage(accountId, amounts, windows, usageRoom(amounts, windows, limits))} RETURNING emails_month`,
  ]);
  return updated?.results.length === 1;
}

/** The account's usage row, made if missing (and only for an account that exists, so no foreign key fails). */
export const ensureUsageRow = (accountId: string) =>
  sql`INSERT OR IGNORE INTO account_usage (account_id) SELECT id FROM accounts WHERE id = ${accountId}`;

/**
 * Counts `amounts` when `condition` holds as the batch runs, with no limit of its own: for a batch
 * whose condition checked the room (`usageRoom`) earlier in the same transaction, after `ensureUsageRow`.
 */
export const addUsageIf = (accountId: string, amounts: UsageAmounts, windows: EmailWindows, condition: SQL) =>
  addUsage(accountId, amounts, windows, condition);

/** Gives back a reservation whose rows were not written: emails in whichever windows are still current. */
export function releaseUsage(db: Db, accountId: string, amounts: UsageAmounts, windows: EmailWindows) {
  const { emails: count, bytes } = amounts;
  return db.run(sql`
    UPDATE account_usage SET
      emails_month = CASE WHEN month_start = ${windows.month} THEN max(emails_month - ${count}, 0) ELSE emails_month END,
      emails_day = CASE WHEN day_start = ${windows.day} THEN max(emails_day - ${count}, 0) ELSE emails_day END,
      emails_hour = CASE WHEN hour_start = ${windows.hour} THEN max(emails_hour - ${count}, 0) ELSE emails_hour END,
      storage_bytes = max(storage_bytes - ${bytes}, 0)
    WHERE account_id = ${accountId}`);
}

/** Adds (or, negative, removes) stored bytes without a limit: for bytes already kept. */
export function adjustStorageStatement(accountId: string, bytes: number) {
  return sql`UPDATE account_usage SET storage_bytes = max(storage_bytes + ${bytes}, 0) WHERE account_id = ${accountId}`;
}

/** Adds bytes already received to storage, past the limit if need be (inbound mail is never refused for it). */
export function countStorageStatements(accountId: string, bytes: number) {
  if (bytes === 0) return [];
  // One upsert: the row made with the bytes (none below zero), or the bytes added to it.
  return [
    sql`INSERT INTO account_usage (account_id, storage_bytes) VALUES (${accountId}, max(${bytes}, 0))
        ON CONFLICT (account_id) DO UPDATE SET storage_bytes = max(storage_bytes + ${bytes}, 0)`,
  ];
}
