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
