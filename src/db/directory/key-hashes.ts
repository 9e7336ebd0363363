import { eq } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { keyHashes, workspaces } from "./schema";
import { LEGACY_SHARD } from "./workspaces";

/**
 * Names a new key's token hash in the directory, before the key is written in its shard: a crash
 * between the two leaves a hash naming a key that does not exist, which authenticates nobody.
 */
export async function registerKeyHash(directory: DirectoryDb, tokenHash: string, accountId: string) {
  await directory.insert(keyHashes).values({ tokenHash, accountId }).onConflictDoNothing();
}

/** The workspace a token hash belongs to and the shard holding its key, in one read; null when unknown. */
export async function workspaceOfKeyHash(
  directory: DirectoryDb,
  tokenHash: string,
): Promise<{ accountId: string; shard: string } | null> {
  const rows = await directory
    .select({ accountId: keyHashes.accountId, shard: workspaces.shard })
    .from(keyHashes)
    .leftJoin(workspaces, eq(workspaces.accountId, keyHashes.accountId))
    .where(eq(keyHashes.tokenHash, tokenHash))
    .limit(1);
  const row = rows[0];
  return row ? { accountId: row.accountId, shard: row.shard ?? LEGACY_SHARD } : null;
}
