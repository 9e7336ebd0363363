import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, apiKeys } from "../db/schema";

/* The key guard's own reads and writes of `api_keys`: authentication sits below the keys feature, which manages the keys. */

/**
 * What the key guard needs to authenticate and rate-limit a token, in one indexed read of the
 * workspace's shard; the directory named the workspace, and the key must be that workspace's.
 */
export async function findKeyForAuth(db: Db, tokenHash: string, accountId: string) {
  const rows = await db
    .select({
      keyId: apiKeys.id,
      keyPrefix: apiKeys.keyPrefix,
      accountId: apiKeys.accountId,
      permission: apiKeys.permission,
      isActive: apiKeys.isActive,
      lastUsedAt: apiKeys.lastUsedAt,
      plan: accounts.plan,
      accountStatus: accounts.status,
      quotaOverrides: accounts.quotaOverrides,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.tokenHash, tokenHash), eq(apiKeys.accountId, accountId)))
    .limit(1);
  return rows[0] ?? null;
}

/** When the key was last used, at most every LAST_USED_WRITE_INTERVAL_MS (key-guard.ts). */
export function recordKeyUse(db: Db, keyId: string, at: number) {
  return db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
}
