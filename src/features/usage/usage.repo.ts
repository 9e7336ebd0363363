import { eq, sql } from "drizzle-orm";
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

export interface UsageLimits {
  month: number | null;
  day: number | null;
  hour: number | null;
  storage: number | null;
}

/** What one write adds: emails to the current windows, bytes to storage. */
export interface UsageAmounts {
  emails: number;
  bytes: number;
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
  const { emails: count, bytes } = amounts;
  const month = sql`(CASE WHEN month_start = ${windows.month} THEN emails_month ELSE 0 END + ${count})`;
  const day = sql`(CASE WHEN day_start = ${windows.day} THEN emails_day ELSE 0 END + ${count})`;
  const hour = sql`(CASE WHEN hour_start = ${windows.hour} THEN emails_hour ELSE 0 END + ${count})`;
  const storage = sql`(storage_bytes + ${bytes})`;
  const [, updated] = await runBatch(db, [
    db.insert(accountUsage).values({ accountId }).onConflictDoNothing(),
    sql`
      UPDATE account_usage SET
        emails_month = ${month}, month_start = ${windows.month},
        emails_day = ${day}, day_start = ${windows.day},
        emails_hour = ${hour}, hour_start = ${windows.hour},
        storage_bytes = ${storage}
      WHERE account_id = ${accountId}
        AND (${count} = 0 OR ${limits.month} IS NULL OR ${month} <= ${limits.month})
        AND (${count} = 0 OR ${limits.day} IS NULL OR ${day} <= ${limits.day})
        AND (${count} = 0 OR ${limits.hour} IS NULL OR ${hour} <= ${limits.hour})
        AND (${bytes} = 0 OR ${limits.storage} IS NULL OR ${storage} <= ${limits.storage})
      RETURNING emails_month`,
  ]);
  return updated?.results.length === 1;
}

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
export function countStorageStatements(db: Db, accountId: string, bytes: number) {
  if (bytes === 0) return [];
  return [
    db.insert(accountUsage).values({ accountId }).onConflictDoNothing(),
    adjustStorageStatement(accountId, bytes),
  ];
}
