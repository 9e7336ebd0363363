/**
 * npm run bootstrap -- [--name N] [--plan free|starter|pro|enterprise] [--override quota=value]
 *                      [--domain D] [--owner-email E] [--shard S] [--json] [--remote]
 * Creates a workspace (account), an admin API key and an owner user with a fresh one-time sign-in
 * link in the local D1 database (or the deployed one with --remote, which needs PUBLIC_BASE_URL)
 * and prints them. Safe to run while `npm start` is serving. --domain also connects
 * a sending domain: verified at once locally; with --remote it needs ENCRYPTION_KEY in the
 * environment (the deployed secret) and stays pending until its DNS records are verified.
 * The workspace goes to the shard holding the fewest workspaces (scripts/lib/placement.ts) unless
 * --shard pins one of wrangler.toml's SHARDS.
 */
import { parseArgs } from "node:util";
import type { QuotaOverrides } from "../src/lib/plans";
import { readDevVar } from "./lib/dev-vars";
import { DEFAULT_OWNER_EMAIL } from "./lib/people";
import { createWorkspace, parseOverride, parsePlan } from "./lib/workspace";

const { values } = parseArgs({
  options: {
    name: { type: "string", default: "Development workspace" },
    plan: { type: "string", default: "free" },
    override: { type: "string", multiple: true, default: [] },
    json: { type: "boolean", default: false },
    domain: { type: "string" },
    "owner-email": { type: "string", default: DEFAULT_OWNER_EMAIL },
    remote: { type: "boolean", default: false },
    shard: { type: "string" },
  },
  strict: true,
});

try {
  const overrides: QuotaOverrides = {};
  for (const text of values.override) parseOverride(text, overrides);
  const encryptionKey = values.remote ? process.env.ENCRYPTION_KEY : readDevVar("ENCRYPTION_KEY");
  if (values.domain && !encryptionKey) {
    throw new Error(
      values.remote
        ? "--remote --domain needs the deployed ENCRYPTION_KEY in the environment."
        : "Run `npm start` once first: .dev.vars holds the ENCRYPTION_KEY.",
    );
  }
  const created = await createWorkspace(
    {
      name: values.name,
      plan: parsePlan(values.plan),
      overrides,
      ownerEmail: values["owner-email"],
      ...(values.shard ? { shard: values.shard } : {}),
      ...(values.domain && encryptionKey ? { domain: { name: values.domain, encryptionKey } } : {}),
    },
    values.remote ? "remote" : "local",
  );
  if (values.json) {
    console.log(JSON.stringify(created));
  } else {
    console.log(
      `Workspace ${created.account_id} (${values.plan}, in shard ${created.shard}) with admin key ${created.key_id}:`,
    );
    console.log(`  ${created.token}`);
    console.log("Store the token now; only its hash is kept.");
    console.log(`Owner ${created.user_id} (${values["owner-email"]}) signs in once, within 15 minutes, at:`);
    console.log(`  ${created.login_url}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
