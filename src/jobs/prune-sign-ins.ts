import type { Db } from "../db/client";
import type { DirectoryDb } from "../db/directory/client";
import { pruneExpiredTokenHashes, TOKEN_KINDS } from "../db/directory/token-hashes";
import { deleteExpiredSignIns } from "../features/sessions/sessions.repo";
import { pruneInBatches } from "./prune-in-batches";

/**
 * Expired sessions and sign-in links of one shard's workspaces, which nothing reads once expired,
 * in bounded batches through their expiry indexes.
 */
export function pruneSignIns(db: Db, now: number): Promise<number> {
  return pruneInBatches((batchSize) => deleteExpiredSignIns(db, now, batchSize));
}

/**
 * The directory's names of expired sessions, sign-in links and invitation links (an invitation's
 * link opens nothing after its expiry either; a resend names a new one), in bounded batches.
 */
export async function pruneExpiredNames(directory: DirectoryDb, now: number): Promise<number> {
  let names = 0;
  for (const kind of TOKEN_KINDS) {
    names += await pruneInBatches((batchSize) => pruneExpiredTokenHashes(directory, kind, now, batchSize));
  }
  return names;
}
