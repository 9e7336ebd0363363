import { and, eq, gt, sql } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { workspaceMoves, workspaces } from "./schema";

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
 * How long an isolate keeps a workspace's shard, and whether it is frozen (being moved). A workspace
 * changes shard only when an operator moves it (features/workspace-moves), and a move freezes the
 * workspace's writes and then waits longer than this before it copies a row, so every isolate has
 * seen the freeze by then; an isolate that read the freeze keeps it until it reads again, so it
 * never writes to the shard being left, even just after the switch.
 */
export const SHARD_CACHE_MS = 10_000;
const SHARD_CACHE_SIZE = 10_000;

/** Where a workspace lives, and whether a move has frozen its writes (as read, at most 10 s ago). */
export interface WorkspaceHome {
  shard: string;
  frozen: boolean;
}
const shardCache = new Map<string, WorkspaceHome & { until: number }>();

function remember(accountId: string, home: WorkspaceHome, now: number) {
  // The oldest entry goes first when the cache is full: a Map keeps insertion order.
  if (shardCache.size >= SHARD_CACHE_SIZE) shardCache.delete(shardCache.keys().next().value as string);
  shardCache.delete(accountId);
  shardCache.set(accountId, { ...home, until: now + SHARD_CACHE_MS });
}

/** This isolate reads the workspace's home again at its next use (a move it made changed it). */
export function forgetHome(accountId: string): void {
  shardCache.delete(accountId);
}

/**
 * Where several workspaces live: those the isolate read within `SHARD_CACHE_MS` from its cache, the
 * rest in one read of the directory (none when all are cached), with their freeze. A workspace the
 * directory does not know is missing from the answer, and not kept: one created a moment later is
 * found at once.
 */
export async function homesOf(
  directory: DirectoryDb,
  accountIds: Iterable<string>,
  now = Date.now(),
): Promise<Map<string, WorkspaceHome>> {
  const found = new Map<string, WorkspaceHome>();
  const missing: string[] = [];
  for (const accountId of new Set(accountIds)) {
    const cached = shardCache.get(accountId);
    if (cached && cached.until > now) found.set(accountId, { shard: cached.shard, frozen: cached.frozen });
    else missing.push(accountId);
  }
  if (missing.length === 0) return found;
  const rows = await directory
    .select({
      accountId: workspaces.accountId,
      shard: workspaces.shard,
      frozenUntil: workspaceMoves.frozenUntil,
    })
    .from(workspaces)
    .leftJoin(
      workspaceMoves,
      and(eq(workspaceMoves.accountId, workspaces.accountId), gt(workspaceMoves.frozenUntil, now)),
    )
    .where(
      missing.length === 1
        ? eq(workspaces.accountId, missing[0] as string)
        : sql`${workspaces.accountId} IN (SELECT value FROM json_each(${JSON.stringify(missing)}))`,
    );
  for (const row of rows) {
    const home = { shard: row.shard, frozen: row.frozenUntil !== null };
    found.set(row.accountId, home);
    remember(row.accountId, home, now);
  }
  return found;
}

/**
 * Those of `accountIds` whose home is `shard` and that no move holds (see `homesOf`): a job that
 * changes a shard's rows of a workspace acts only where the workspace lives. After a move's switch
 * its old rows wait in the old shard for the clean-up, and they are no longer its own.
 */
export async function homedIn(
  directory: DirectoryDb,
  shard: string,
  accountIds: string[],
  now = Date.now(),
): Promise<Set<string>> {
  const homes = await homesOf(directory, accountIds, now);
  return new Set(
    accountIds.filter((id) => {
      const home = homes.get(id);
      return home?.shard === shard && !home.frozen;
    }),
  );
}

/** The shards of several workspaces (see `homesOf`). */
export async function shardsOf(
  directory: DirectoryDb,
  accountIds: Iterable<string>,
  now = Date.now(),
): Promise<Map<string, string>> {
  const homes = await homesOf(directory, accountIds, now);
  return new Map([...homes].map(([accountId, home]) => [accountId, home.shard]));
}

/** Where a workspace lives, or null for one the directory does not know (see `homesOf`). */
export async function homeOf(
  directory: DirectoryDb,
  accountId: string,
  now = Date.now(),
): Promise<WorkspaceHome | null> {
  return (await homesOf(directory, [accountId], now)).get(accountId) ?? null;
}

/** The shard of a workspace, or null for one the directory does not know (see `homesOf`). */
export async function shardOf(
  directory: DirectoryDb,
  accountId: string,
  now = Date.now(),
): Promise<string | null> {
  return (await homeOf(directory, accountId, now))?.shard ?? null;
}
