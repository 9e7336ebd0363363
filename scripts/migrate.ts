/**
 * npm run db:migrate [-- --remote]
 * Applies the pending D1 migrations of every database `wrangler.toml` declares (the directory,
 * every workspace shard, the request logs), locally or to the deployed databases with --remote.
 * `npm start`, `npm run deploy` and the tests apply them the same way.
 */
import { parseArgs } from "node:util";
import { d1Databases } from "./lib/databases";
import { applyLocalMigrations } from "./lib/local-migrations";
import { runWrangler } from "./lib/wrangler";

const { values } = parseArgs({ options: { remote: { type: "boolean", default: false } }, strict: true });
if (values.remote) {
  for (const { binding } of d1Databases()) runWrangler(["d1", "migrations", "apply", binding, "--remote"]);
} else {
  // What `wrangler d1 migrations apply --local` does, in one local runtime for every database.
  await applyLocalMigrations();
}
