import { eq, inArray, lte } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { invitationHashes, sessionHashes, signInHashes } from "./schema";

/**
 * The one-time tokens found before their workspace is known, by kind: dashboard sessions, sign-in
 * links and invitation links. Each names the SHA-256 of its token and the workspace holding its
 * record; the record (and whether it may still be used) is in that workspace's shard.
 */
const TABLES = { session: sessionHashes, signIn: signInHashes, invitation: invitationHashes };
export type TokenKind = keyof typeof TABLES;
export const TOKEN_KINDS = Object.keys(TABLES) as TokenKind[];

/** A token's entry: its hash, its workspace, and when its record expires. */
export interface NamedToken {
  tokenHash: string;
  accountId: string;
  expiresAt: number;
}

/** Rows per INSERT: three bound parameters a row, under D1's 100 per statement. */
const ROWS_PER_INSERT = 33;

/** The statement naming tokens (at most ROWS_PER_INSERT), for a batch with other directory writes. */
export const tokenHashInsert = (directory: DirectoryDb, kind: TokenKind, entries: NamedToken[]) =>
  directory.insert(TABLES[kind]).values(entries).onConflictDoNothing();

/**
 * Names tokens' hashes, in one round trip, before their records are written in their shards: a
 * crash between the two leaves a name whose record does not exist, which opens nothing.
 */
export async function nameTokenHashes(directory: DirectoryDb, kind: TokenKind, entries: NamedToken[]) {
  if (entries.length === 0) return;
  const [first, ...rest] = chunks(entries).map((chunk) => tokenHashInsert(directory, kind, chunk));
  if (first) await directory.batch([first, ...rest]);
}

function chunks(entries: NamedToken[]) {
  const out: NamedToken[][] = [];
  for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) out.push(entries.slice(i, i + ROWS_PER_INSERT));
  return out;
}

/** The workspace a token's hash names, or null when the directory does not know it. */
export async function workspaceOfTokenHash(
  directory: DirectoryDb,
  kind: TokenKind,
  tokenHash: string,
): Promise<NamedToken | null> {
  const table = TABLES[kind];
  const rows = await directory.select().from(table).where(eq(table.tokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

/** Forgets tokens' hashes, once their records are gone or replaced (a name left behind opens nothing). */
export async function forgetTokenHashes(directory: DirectoryDb, kind: TokenKind, tokenHashes: string[]) {
  if (tokenHashes.length === 0) return;
  const table = TABLES[kind];
  await directory.delete(table).where(inArray(table.tokenHash, tokenHashes));
}

/** The statement deleting at most `limit` names of `kind` whose tokens expired, through the expiry index. */
export function expiredTokenHashesDelete(
  directory: DirectoryDb,
  kind: TokenKind,
  now: number,
  limit: number,
) {
  const table = TABLES[kind];
  const expired = directory
    .select({ tokenHash: table.tokenHash })
    .from(table)
    .where(lte(table.expiresAt, now))
    .limit(limit);
  return directory.delete(table).where(inArray(table.tokenHash, expired));
}

/**
 * Deletes at most `limit` names of `kind` whose tokens expired (their records can no longer be
 * used); answers how many went.
 */
export async function pruneExpiredTokenHashes(
  directory: DirectoryDb,
  kind: TokenKind,
  now: number,
  limit: number,
): Promise<number> {
  const result = await expiredTokenHashesDelete(directory, kind, now, limit);
  return result.meta.changes ?? 0;
}
