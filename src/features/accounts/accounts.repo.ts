import { and, eq, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, usageCounters } from "../../db/schema";

export type AccountRow = typeof accounts.$inferSelect;

export async function findAccount(db: Db, accountId: string) {
  const rows = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return rows[0] ?? null;
}

export async function updateAccount(
  db: Db,
  accountId: string,
  changes: Partial<typeof accounts.$inferInsert>,
) {
  const rows = await db.update(accounts).set(changes).where(eq(accounts.id, accountId)).returning();
  return rows[0] ?? null;
}

/** Current values of the given counters, one indexed lookup per (metric, window start). */
export async function readCounters(
  db: Db,
  accountId: string,
  windows: Array<{ metric: string; start: number }>,
) {
  const rows = await db
    .select()
    .from(usageCounters)
    .where(
      and(
        eq(usageCounters.accountId, accountId),
        or(
          ...windows.map((w) =>
            and(eq(usageCounters.metric, w.metric), eq(usageCounters.windowStart, w.start)),
          ),
        ),
      ),
    );
  return new Map(rows.map((row) => [row.metric, row.value]));
}
