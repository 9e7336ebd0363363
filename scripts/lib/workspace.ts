import { generateToken, hashToken, keyPrefixOf } from "../../src/auth/token";
import { encryptSecret } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { PLAN_NAMES, type PlanName, QUOTA_NAMES, type QuotaOverrides } from "../../src/lib/plans";
import { generateDkimKeyPair, newSelector } from "../../src/mail/dkim/keys";
import { DEFAULT_OWNER_EMAIL, loginLinkSql, ownerSql, signInBaseUrl } from "./people";
import { chooseShard } from "./placement";
import { executeSql, withLocalSql } from "./sql";
import { sqlText, type Target } from "./wrangler";

export interface WorkspaceOptions {
  name: string;
  plan: PlanName;
  overrides: QuotaOverrides;
  keyName?: string;
  /** A sending domain to connect; verified at once on the local database only. */
  domain?: { name: string; encryptionKey: string };
  /** The owner user's email (DEFAULT_OWNER_EMAIL unless given). */
  ownerEmail?: string;
  /** Where the owner's sign-in link points; `signInBaseUrl(target, $PORT or 8787)` by default. */
  baseUrl?: string;
  /** The shard it lives in: pinned by the operator (`--shard`), else chosen (scripts/lib/placement.ts). */
  shard?: string;
}

export interface CreatedWorkspace {
  account_id: string;
  /** The shard (D1 binding) it lives in. */
  shard: string;
  key_id: string;
  token: string;
  /** The workspace's owner. */
  user_id: string;
  /** A fresh one-time sign-in link for the owner (15 minutes). */
  login_url: string;
}

export function parsePlan(value: string): PlanName {
  if (!(PLAN_NAMES as readonly string[]).includes(value)) {
    throw new Error(`--plan must be one of ${PLAN_NAMES.join(", ")}`);
  }
  return value as PlanName;
}

/** Parses `--override quota=value` (a number, or `unlimited`). */
export function parseOverride(text: string, into: QuotaOverrides): void {
  const [name, value] = text.split("=");
  if (!name || value === undefined || !(QUOTA_NAMES as readonly string[]).includes(name)) {
    throw new Error(`--override takes quota=value with quota one of ${QUOTA_NAMES.join(", ")}`);
  }
  const limit = value === "unlimited" ? null : Number(value);
  if (limit !== null && !(Number.isInteger(limit) && limit >= 0))
    throw new Error(`bad override value: ${value}`);
  into[name as keyof QuotaOverrides] = limit;
}

/**
 * Creates an account, an admin key, an owner user and a sign-in link for them in one D1
 * transaction; answers the key's token and the link.
 */
export async function createWorkspace(options: WorkspaceOptions, target: Target): Promise<CreatedWorkspace> {
  const create = async () => {
    const shard = await chooseShard(target, options.shard);
    const { sql, directorySql, workspace } = await workspaceSql({ ...options, shard }, target);
    // The directory first: a key its shard holds is then always found (src/db/directory/).
    await executeSql(directorySql, target, "DIRECTORY");
    await executeSql(sql, target, shard);
    return workspace;
  };
  return target === "local" ? withLocalSql(create) : create();
}

/**
 * What seeds a test database: `db` for the workspaces' shard (`shard`, `DB` unless named),
 * `directory` for the directory, which names each workspace's shard, its keys' hashes, its people's
 * emails, their sessions and sign-in links.
 */
export interface SeedSql {
  db: string;
  shard?: string;
  directory: string;
}

/** The directory rows of a workspace living in `shard`, and of its keys. */
export const directoryRowsSql = (accountId: string, shard: string, now: number, keyHashes: string[]) =>
  [
    `INSERT OR IGNORE INTO workspaces (account_id, shard, created_at) VALUES (${sqlText(accountId)}, ${sqlText(shard)}, ${now});`,
    ...keyHashes.map(
      (hash) =>
        `INSERT OR IGNORE INTO key_hashes (token_hash, account_id) VALUES (${sqlText(hash)}, ${sqlText(accountId)});`,
    ),
  ].join("\n");

/**
 * The SQL that creates a workspace, for callers that run it themselves (test databases): `sql` for
 * its shard (`options.shard`, `DB` unless named), `directorySql` for the directory.
 */
export async function workspaceSql(
  options: WorkspaceOptions,
  target: Target,
): Promise<{ sql: string; directorySql: string; shard: string; workspace: CreatedWorkspace }> {
  const shard = options.shard ?? "DB";
  const token = generateToken();
  const accountId = newId("acc");
  const keyId = newId("key");
  const now = Date.now();
  const tokenHash = await hashToken(token);
  const connection = options.domain ? await connectionInsert(accountId, options.domain, target, now) : "";
  const owner = ownerSql(accountId, options.ownerEmail ?? DEFAULT_OWNER_EMAIL, now);
  const link = await loginLinkSql(
    accountId,
    owner.userId,
    options.baseUrl ?? signInBaseUrl(target, Number(process.env.PORT ?? 8787)),
    now,
  );
  const sql = [
    `INSERT INTO accounts (id, name, plan, quota_overrides, created_at, updated_at) VALUES (${sqlText(accountId)}, ${sqlText(options.name)}, ${sqlText(options.plan)}, ${sqlText(JSON.stringify(options.overrides))}, ${now}, ${now});`,
    `INSERT INTO api_keys (id, account_id, name, key_prefix, token_hash, permission, created_at) VALUES (${sqlText(keyId)}, ${sqlText(accountId)}, ${sqlText(options.keyName ?? "Bootstrap admin key")}, ${sqlText(keyPrefixOf(token))}, ${sqlText(tokenHash)}, 'admin', ${now});`,
    connection,
    owner.sql,
    link.sql,
  ].join("\n");
  return {
    sql,
    directorySql: [
      directoryRowsSql(accountId, shard, now, [tokenHash]),
      owner.directorySql,
      link.directorySql,
    ].join("\n"),
    shard,
    workspace: {
      account_id: accountId,
      shard,
      key_id: keyId,
      token,
      user_id: owner.userId,
      login_url: link.url,
    },
  };
}

/**
 * A connection with a fresh DKIM key, its private half encrypted with the target's
 * ENCRYPTION_KEY. Locally it is marked verified (no DNS to publish); remotely it stays pending
 * until its records are published and POST /v1/connections/{id}/verify passes.
 */
async function connectionInsert(
  accountId: string,
  domain: { name: string; encryptionKey: string },
  target: Target,
  now: number,
) {
  const keys = await generateDkimKeyPair();
  const status = target === "local" ? "verified" : "pending";
  const values = [
    newId("con"),
    accountId,
    domain.name.toLowerCase(),
    status,
    newSelector(),
    keys.publicKey,
    await encryptSecret(domain.encryptionKey, keys.privateKey),
  ].map(sqlText);
  return `INSERT INTO connections (id, account_id, domain, status, dkim_selector, dkim_public_key, dkim_private_key_encrypted, verified_at, created_at, updated_at) VALUES (${values.join(", ")}, ${status === "verified" ? now : "NULL"}, ${now}, ${now});`;
}

/** Connects `domain` to the account unless it already is (for workspaces made before it was asked for). */
export async function ensureConnection(
  accountId: string,
  domain: { name: string; encryptionKey: string },
  target: Target,
  shard: string,
): Promise<void> {
  const [found] = await executeSql(
    `SELECT id FROM connections WHERE account_id = ${sqlText(accountId)} AND domain = ${sqlText(domain.name.toLowerCase())};`,
    target,
    shard,
  );
  if (found?.results.length) return;
  await executeSql(await connectionInsert(accountId, domain, target, Date.now()), target, shard);
}

/** Whether the key still exists and is active (the saved development key may predate a reset). */
export async function keyIsActive(keyId: string, target: Target, shard: string): Promise<boolean> {
  const [statement] = await executeSql(
    `SELECT is_active FROM api_keys WHERE id = ${sqlText(keyId)};`,
    target,
    shard,
  );
  return statement?.results[0]?.is_active === 1;
}
