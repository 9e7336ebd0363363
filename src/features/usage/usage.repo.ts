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

export interface EmailLimits {
  month: number | null;
  day: number | null;
  hour: number | null;
}

/**
 * Adds `count` emails to the account's month, day and hour windows only if all three stay within
 * their limits, in one statement (SET reads the old row, so the checks and the increments see the
 * same values). Answers whether the reservation was made.
 */
export async function reserveEmails(
  db: Db,
  accountId: string,
  count: number,
  windows: EmailWindows,
  limits: EmailLimits,
): Promise<boolean> {
  const month = sql`(CASE WHEN month_start = ${windows.month} THEN emails_month ELSE 0 END + ${count})`;
  const day = sql`(CASE WHEN day_start = ${windows.day} THEN emails_day ELSE 0 END + ${count})`;
  const hour = sql`(CASE WHEN hour_start = ${windows.hour} THEN emails_hour ELSE 0 END + ${count})`;
  const [, updated] = await runBatch(db, [
    db.insert(accountUsage).values({ accountId }).onConflictDoNothing(),
    sql`
      UPDATE account_usage SET
        emails_month = ${month}, month_start = ${windows.month},
        emails_day = ${day}, day_start = ${windows.day},
        emails_hour = ${hour}, hour_start = ${windows.hour}
      WHERE account_id = ${accountId}
        AND (${limits.month} IS NULL OR ${month} <= ${limits.month})
        AND (${limits.day} IS NULL OR ${day} <= ${limits.day})
        AND (${limits.hour} IS NULL OR ${hour} <= ${limits.hour})
      RETURNING emails_month`,
  ]);
  return updated?.results.length === 1;
}

/** Gives back a reservation whose email was not created, in whichever windows are still current. */
export function releaseEmails(db: Db, accountId: string, count: number, windows: EmailWindows) {
  return db.run(sql`
    UPDATE account_usage SET
      emails_month = CASE WHEN month_start = ${windows.month} THEN max(emails_month - ${count}, 0) ELSE emails_month END,
      emails_day = CASE WHEN day_start = ${windows.day} THEN max(emails_day - ${count}, 0) ELSE emails_day END,
      emails_hour = CASE WHEN hour_start = ${windows.hour} THEN max(emails_hour - ${count}, 0) ELSE emails_hour END
    WHERE account_id = ${accountId}`);
}
