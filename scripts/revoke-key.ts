/**
 * npm run keys:revoke -- <key_id> [--remote --url https://api.example.com]
 * Revokes an API key. Through a running Worker (the operator route, authenticated with OPS_TOKEN)
 * the key's guard forgets it at once, so its very next request is refused. When no local server is
 * running, the key is marked inactive in the local database directly (no guard holds it then).
 */
import { shardNames } from "./lib/databases";
import { opsCommand } from "./lib/ops";
import { executeSql, withLocalSql } from "./lib/sql";
import { sqlText } from "./lib/wrangler";

const { positionals, remote, baseUrl, opsToken } = opsCommand("npm run keys:revoke -- <key_id>", 1);
const keyId = positionals[0] as string;

async function viaServer(): Promise<Response | null> {
  try {
    return await fetch(`${baseUrl}/_ops/keys/${encodeURIComponent(keyId)}/revoke`, {
      method: "POST",
      headers: { Authorization: `Bearer ${opsToken}` },
    });
  } catch {
    return null;
  }
}

const response = await viaServer();
if (response) {
  const body = await response.text();
  if (!response.ok) {
    console.error(`Revocation failed (${response.status}): ${body}`);
    process.exit(1);
  }
  console.log(`Revoked ${keyId}; it is refused from its next request.`);
} else if (remote) {
  console.error(`Could not reach ${baseUrl}.`);
  process.exit(1);
} else {
  // No server: the key is in one of the shards; each is asked (a key id is unique in the service).
  const revoked = await withLocalSql(async () => {
    for (const shard of shardNames()) {
      const [update] = await executeSql(
        `UPDATE api_keys SET is_active = 0, revoked_at = ${Date.now()} WHERE id = ${sqlText(keyId)} RETURNING id;`,
        "local",
        shard,
      );
      if ((update?.results.length ?? 0) > 0) return true;
    }
    return false;
  });
  if (!revoked) {
    console.error(`No API key ${keyId} in the local databases.`);
    process.exit(1);
  }
  console.log(`Revoked ${keyId} in the local database (no server was running).`);
}
