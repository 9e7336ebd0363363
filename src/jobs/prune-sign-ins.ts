import type { Db } from "../db/client";
import type { DirectoryDb } from "../db/directory/client";
import { pruneExpiredTokenHashes, TOKEN_KINDS } from "../db/directory/token-hashes";
import { deleteExpiredSignIns } from "../features/sessions/sessions.repo";
import { pruneInBatches } from "./prune-in-batches";

/**
 * Expired sessions and sign-in links, which nothing reads once expired: their rows in the
 * workspaces' shard, and the directory's names of sessions, sign-in links and invitation links
 * (an invitation's link opens nothing after its expiry either; a resend names a new one). Each
 * in bounded batches through its expiry index.
 */
export async function pruneSignIns(db: Db, directory: DirectoryDb, now: number) {
  const rows = await pruneInBatches((batchSize) => deleteExpiredSignIns(db, now, batchSize));
  let names = 0;
  for (const kind of TOKEN_KINDS) {
    names += await pruneInBatches((batchSize) => pruneExpiredTokenHashes(directory, kind, now, batchSize));
  }
  return { rows, names };
}
