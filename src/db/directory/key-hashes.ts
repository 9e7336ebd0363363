import { eq, sql } from "drizzle-orm";
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

/**
 * The workspaces and shards of several token hashes, in one read (`json_each`: D1's 100-parameter
 * limit); a hash the directory does not name is missing from the answer.
 */
export async function workspacesOfKeyHashes(
  directory: DirectoryDb,
  tokenHashes: string[],
): Promise<Map<string, { accountId: string; shard: string }>> {
  if (tokenHashes.length === 0) return new Map();
  const rows = await directory
    .select({ tokenHash: keyHashes.tokenHash, accountId: keyHashes.accountId, shard: workspaces.shard })
    .from(keyHashes)
    .leftJoin(workspaces, eq(workspaces.accountId, keyHashes.accountId))
    .where(sql`${keyHashes.tokenHash} IN (SELECT value FROM json_each(${JSON.stringify(tokenHashes)}))`);
  return new Map(
    rows.map((row) => [row.tokenHash, { accountId: row.accountId, shard: row.shard ?? LEGACY_SHARD }]),
  );
}
