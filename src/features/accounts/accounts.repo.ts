import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts } from "../../db/schema";

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
