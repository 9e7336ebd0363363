import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { accounts } from "../../db/schema";

export type AccountRow = typeof accounts.$inferSelect;

// Read on every GET /v1/accounts, the cheapest authenticated call: built once (prepared.ts).
const accountById = preparedOnce((db) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("id")))
    .limit(1)
    .prepare(),
);

export async function findAccount(db: Db, accountId: string) {
  const rows = await accountById(db).all({ id: accountId });
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
