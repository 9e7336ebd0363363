import type { DirectoryDb } from "./client";
import { forgetTokenHashes, workspaceOfTokenHash } from "./token-hashes";

/**
 * A session's workspace never changes, so an isolate keeps what it read (until the session
 * expires): a signed-in person's pages read the directory once per isolate, not once a page. Safe
 * because the shard has the last word: a session ended there (logout, a disabled user) opens
 * nothing, whatever this remembers.
 */
const CACHE_SIZE = 10_000;
const cache = new Map<string, { accountId: string; expiresAt: number }>();

/** The workspace of a session's token hash, from the isolate's cache or the directory; null when unknown or expired. */
export async function workspaceOfSessionHash(
  directory: DirectoryDb,
  tokenHash: string,
  now: number,
): Promise<string | null> {
  const cached = cache.get(tokenHash);
  if (cached && cached.expiresAt > now) return cached.accountId;
  const named = await workspaceOfTokenHash(directory, "session", tokenHash);
  // An unknown hash is not kept: a session named a moment later must be found at once.
  if (!named || named.expiresAt <= now) return null;
  // The oldest entry goes first when the cache is full: a Map keeps insertion order.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(tokenHash, { accountId: named.accountId, expiresAt: named.expiresAt });
  return named.accountId;
}

/** Forgets an ended session: in this isolate's cache and in the directory. */
export async function forgetSessionHash(directory: DirectoryDb, tokenHash: string) {
  cache.delete(tokenHash);
  await forgetTokenHashes(directory, "session", [tokenHash]);
}
