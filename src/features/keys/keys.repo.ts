import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apiKeys } from "../../db/schema";

export type KeyRow = typeof apiKeys.$inferSelect;
export type NewKeyRow = typeof apiKeys.$inferInsert;

export function insertKey(db: Db, row: NewKeyRow) {
  return db.insert(apiKeys).values(row);
}

/** Newest first, revoked keys included (the spec's GET /v1/keys). */
export function listKeys(db: Db, accountId: string) {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findKey(db: Db, keyId: string) {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).limit(1);
  return rows[0] ?? null;
}

export function markKeyRevoked(db: Db, keyId: string, at: number) {
  return db
    .update(apiKeys)
    .set({ isActive: false, revokedAt: at })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.isActive, true)));
}
