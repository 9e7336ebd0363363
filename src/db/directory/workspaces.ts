import { eq } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { workspaces } from "./schema";

/**
 * The shard every workspace the directory does not name lives in: the first database, which held
 * every workspace before there was a directory (`npm run directory:backfill` names them all).
 */
export const LEGACY_SHARD = "DB";

/** Records where a new workspace lives; answers false when it was recorded already. */
export async function registerWorkspace(
  directory: DirectoryDb,
  accountId: string,
  shard: string,
  now: number,
): Promise<boolean> {
  const rows = await directory
    .insert(workspaces)
    .values({ accountId, shard, createdAt: now })
    .onConflictDoNothing()
    .returning({ accountId: workspaces.accountId });
  return rows.length === 1;
}

/**
 * How long an isolate keeps a workspace's shard. A workspace changes shard only when an operator
 * moves it, and a move freezes the workspace's writes for longer than this before it copies a row
 * (docs/operations-and-deployment.md, "The directory"), so no write lands on a shard the workspace
 * has left.
 */
export const SHARD_CACHE_MS = 10_000;
const SHARD_CACHE_SIZE = 10_000;
const shardCache = new Map<string, { shard: string; until: number }>();

/**
 * The shard of a workspace, or null for one the directory does not know; from the isolate's cache
 * when it read it within `SHARD_CACHE_MS` (no round trip), else one read of the directory.
 */
export async function shardOf(
  directory: DirectoryDb,
  accountId: string,
  now = Date.now(),
): Promise<string | null> {
  const cached = shardCache.get(accountId);
  if (cached && cached.until > now) return cached.shard;
  const rows = await directory
    .select({ shard: workspaces.shard })
    .from(workspaces)
    .where(eq(workspaces.accountId, accountId))
    .limit(1);
  const shard = rows[0]?.shard ?? null;
  // An unknown workspace is not kept: one created a moment later must be found at once.
  if (shard === null) return null;
  // The oldest entry goes first when the cache is full: a Map keeps insertion order.
  if (shardCache.size >= SHARD_CACHE_SIZE) shardCache.delete(shardCache.keys().next().value as string);
  shardCache.delete(accountId);
  shardCache.set(accountId, { shard, until: now + SHARD_CACHE_MS });
  return shard;
}
