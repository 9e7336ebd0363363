import { eq, sql } from "drizzle-orm";
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

function remember(accountId: string, shard: string, now: number) {
  // The oldest entry goes first when the cache is full: a Map keeps insertion order.
  if (shardCache.size >= SHARD_CACHE_SIZE) shardCache.delete(shardCache.keys().next().value as string);
  shardCache.delete(accountId);
  shardCache.set(accountId, { shard, until: now + SHARD_CACHE_MS });
}

/**
 * The shards of several workspaces: those the isolate read within `SHARD_CACHE_MS` from its cache,
 * the rest in one read of the directory (none when all are cached). A workspace the directory does
 * not know is missing from the answer, and not kept: one created a moment later is found at once.
 */
export async function shardsOf(
  directory: DirectoryDb,
  accountIds: Iterable<string>,
  now = Date.now(),
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const missing: string[] = [];
  for (const accountId of new Set(accountIds)) {
    const cached = shardCache.get(accountId);
    if (cached && cached.until > now) found.set(accountId, cached.shard);
    else missing.push(accountId);
  }
  if (missing.length === 0) return found;
  const rows = await directory
    .select({ accountId: workspaces.accountId, shard: workspaces.shard })
    .from(workspaces)
    .where(
      missing.length === 1
        ? eq(workspaces.accountId, missing[0] as string)
        : sql`${workspaces.accountId} IN (SELECT value FROM json_each(${JSON.stringify(missing)}))`,
    );
  for (const row of rows) {
    found.set(row.accountId, row.shard);
    remember(row.accountId, row.shard, now);
  }
  return found;
}

/** The shard of a workspace, or null for one the directory does not know (see `shardsOf`). */
export async function shardOf(
  directory: DirectoryDb,
  accountId: string,
  now = Date.now(),
): Promise<string | null> {
  return (await shardsOf(directory, [accountId], now)).get(accountId) ?? null;
}
