import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { suppressions } from "../../db/schema";

export type SuppressionRow = typeof suppressions.$inferSelect;

export function suppressionQueries(
  db: Db,
  accountId: string,
  email: string | undefined,
  limit: number,
  offset: number,
) {
  const where = and(eq(suppressions.accountId, accountId), email ? eq(suppressions.email, email) : undefined);
  return {
    page: db
      .select()
      .from(suppressions)
      .where(where)
      .orderBy(desc(suppressions.createdAt), desc(suppressions.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(suppressions).where(where),
  };
}

/** Inserts unless the address is already suppressed; answers the new row, or null. */
export async function insertSuppression(db: Db, row: typeof suppressions.$inferInsert) {
  const rows = await db.insert(suppressions).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function deleteSuppression(db: Db, accountId: string, email: string) {
  const rows = await db
    .delete(suppressions)
    .where(and(eq(suppressions.accountId, accountId), eq(suppressions.email, email)))
    .returning({ id: suppressions.id });
  return rows.length > 0;
}
