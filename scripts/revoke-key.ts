/**
 * npm run keys:revoke -- <key_id> [--remote --url https://api.example.com]
 * Revokes an API key. Through a running Worker (the operator route, authenticated with OPS_TOKEN)
 * the key's guard forgets it at once, so its very next request is refused. When no local server is
 * running, the key is marked inactive in the local database directly (no guard holds it then).
 */
import { parseArgs } from "node:util";
import { readDevVar } from "./lib/dev-vars";
import { executeSql, sqlText } from "./lib/wrangler";

const { values, positionals } = parseArgs({
  options: { remote: { type: "boolean", default: false }, url: { type: "string" } },
  allowPositionals: true,
});
const keyId = positionals[0];
if (!keyId) {
  console.error("usage: npm run keys:revoke -- <key_id> [--remote --url <deployed base URL>]");
  process.exit(2);
}

const baseUrl = values.url ?? (values.remote ? undefined : `http://127.0.0.1:${process.env.PORT ?? 8787}`);
const opsToken = process.env.OPS_TOKEN ?? (values.remote ? undefined : readDevVar("OPS_TOKEN"));
if (!baseUrl || !opsToken) {
  console.error("--remote needs --url and the OPS_TOKEN environment variable.");
  process.exit(2);
}

async function viaServer(): Promise<Response | null> {
  try {
    return await fetch(`${baseUrl}/_ops/keys/${encodeURIComponent(keyId as string)}/revoke`, {
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
} else if (values.remote) {
  console.error(`Could not reach ${baseUrl}.`);
  process.exit(1);
} else {
  const [update] = executeSql(
    `UPDATE api_keys SET is_active = 0, revoked_at = ${Date.now()} WHERE id = ${sqlText(keyId)} RETURNING id;`,
    "local",
  );
  if (!update?.results.length) {
    console.error(`No API key ${keyId} in the local database.`);
    process.exit(1);
  }
  console.log(`Revoked ${keyId} in the local database (no server was running).`);
}
