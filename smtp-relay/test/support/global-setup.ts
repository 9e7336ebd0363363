/**
 * Once per run of the relay's tests: a real Worker with seeded workspaces, and a certificate the
 * test clients trust. Workspaces differ in what they provoke: `main` sends freely, `limited` hits
 * its rate limit after a few requests, `hourly` and `monthly` have spent quotas.
 */
import type { TestProject } from "vitest/node";
import { directoryRowsSql, workspaceSql } from "../../../scripts/lib/workspace";
import { sqlText } from "../../../scripts/lib/wrangler";
import { generateToken, hashToken, keyPrefixOf } from "../../../src/auth/token";
import { newId } from "../../../src/lib/ids";
import type { PlanName, QuotaOverrides } from "../../../src/lib/plans";
import { releaseWhenDone } from "../../../test/support/release-when-done";
import { selfSignedCertificate } from "../../src/tls";
import type { RelayTestContext, TestWorkspace } from "./context";
import { startWorker, WORKER_SECRETS } from "./running-worker";

async function workspace(name: string, plan: PlanName, overrides: QuotaOverrides, domain: string) {
  const {
    sql,
    directorySql,
    workspace: created,
  } = await workspaceSql(
    {
      name,
      plan,
      overrides,
      domain: { name: domain, encryptionKey: WORKER_SECRETS.ENCRYPTION_KEY },
      shard: SHARD,
    },
    "local",
  );
  const ws: TestWorkspace = {
    accountId: created.account_id,
    keyId: created.key_id,
    token: created.token,
    domain,
  };
  return { sql, directorySql, ws };
}

/** The relay's workspaces live in the second shard: the Worker finds them through the directory. */
const SHARD = "DB_2";

/** An extra key of the account; `revoked` ones exist but are refused. */
async function extraKey(accountId: string, permission: "read" | "write", revoked: boolean) {
  const token = generateToken();
  const id = newId("key");
  const now = Date.now();
  const hash = await hashToken(token);
  const sql = `INSERT INTO api_keys (id, account_id, name, key_prefix, token_hash, permission, is_active, created_at, revoked_at) VALUES (${sqlText(id)}, ${sqlText(accountId)}, 'extra', ${sqlText(keyPrefixOf(token))}, ${sqlText(hash)}, '${permission}', ${revoked ? 0 : 1}, ${now}, ${revoked ? now : "NULL"});`;
  return { sql, directorySql: directoryRowsSql(accountId, SHARD, now, [hash]), key: { id, token } };
}

export default async function setup(project: TestProject) {
  const main = await workspace("Relay main", "enterprise", { requests_per_minute: 100_000 }, "relay.test");
  const limited = await workspace("Relay limited", "free", { requests_per_minute: 3 }, "limited.test");
  const hourly = await workspace("Relay hourly", "free", { emails_per_hour: 0 }, "hourly.test");
  const monthly = await workspace("Relay monthly", "free", { emails_per_month: 0 }, "monthly.test");
  const reader = await extraKey(main.ws.accountId, "read", false);
  const revoked = await extraKey(main.ws.accountId, "write", true);
  const seeds = [main, limited, hourly, monthly, reader, revoked];
  const worker = await startWorker({
    db: seeds.map((w) => w.sql).join("\n"),
    shard: SHARD,
    directory: seeds.map((w) => w.directorySql).join("\n"),
  });
  const certificate = await selfSignedCertificate("localhost");

  const context: RelayTestContext = {
    workerUrl: worker.url,
    relayToken: WORKER_SECRETS.RELAY_TOKEN,
    certificate,
    workspaces: { main: main.ws, limited: limited.ws, hourly: hourly.ws, monthly: monthly.ws },
    readKey: reader.key.token,
    revokedKey: revoked.key,
  };
  project.provide("relay", context);
  // Stopped once the last relay file ends, not when the whole run does (release-when-done.ts).
  return releaseWhenDone(project, () => worker.stop());
}
