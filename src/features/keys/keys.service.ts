import type { KeyGuard } from "../../auth/key-guard";
import { keyLeases } from "../../auth/key-leases";
import { generateToken, hashToken, keyPrefixOf } from "../../auth/token";
import type { Db } from "../../db/client";
import type { DirectoryDb } from "../../db/directory/client";
import { registerKeyHash } from "../../db/directory/key-hashes";
import { notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { iso } from "../../lib/time";
import { toApiKey } from "./keys.dto";
import { findKey, insertKey, listKeys, markKeyRevoked } from "./keys.repo";
import type { CreateKeyInput } from "./keys.schemas";

export const STORE_TOKEN_WARNING =
  "Store this token now: it is shown only once and cannot be retrieved again. Only its SHA-256 is kept.";

/**
 * A new key: its token hash named in the directory first (so a key written in the shard is always
 * found), then the key in the workspace's shard.
 */
export async function createKey(db: Db, directory: DirectoryDb, accountId: string, input: CreateKeyInput) {
  const token = generateToken();
  const row = {
    id: newId("key"),
    accountId,
    name: input.name,
    keyPrefix: keyPrefixOf(token),
    tokenHash: await hashToken(token),
    permission: input.permission,
    createdAt: Date.now(),
  };
  await registerKeyHash(directory, row.tokenHash, accountId);
  await insertKey(db, row);
  return {
    id: row.id,
    name: row.name,
    token,
    key_prefix: row.keyPrefix,
    permission: row.permission,
    created_at: iso(row.createdAt),
    warning: STORE_TOKEN_WARNING,
  };
}

export async function listAccountKeys(db: Db, accountId: string) {
  return (await listKeys(db, accountId)).map(toApiKey);
}

/**
 * Marks the key inactive in D1 and tells its guard, so the very next request with it is refused
 * (in other isolates, within a second: key-leases.ts).
 * There is deliberately no API route for this (the spec: dashboard only); the dashboard, the
 * operator route and `npm run keys:revoke` call it. With `accountId` (the dashboard) another
 * workspace's key is not found, exactly like an unknown id. Revoking twice is harmless.
 */
export async function revokeKey(
  db: Db,
  guards: DurableObjectNamespace<KeyGuard>,
  keyId: string,
  scope: { accountId?: string } = {},
) {
  const key = await findKey(db, keyId);
  if (!key || (scope.accountId !== undefined && key.accountId !== scope.accountId)) {
    throw notFound(`API key ${keyId}`);
  }
  await markKeyRevoked(db, keyId, Date.now());
  await guards.get(guards.idFromName(key.tokenHash)).revoke();
  // Other isolates stop spending their lease of it within a second (key-leases.ts); this one now.
  keyLeases.forgetKey(key.tokenHash);
  return toApiKey({ ...key, isActive: false });
}
