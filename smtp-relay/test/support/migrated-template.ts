/**
 * Every local database with all its migrations applied, once per set of migrations, for the
 * Workers the tests start (`preparedState` copies it). Applying the migrations took about 5 s and
 * 5.5 CPU-s each time (the local runtime, then every file of four databases), and a run of
 * `npm test` prepared four states: the browser, relay, `inbound-command` and crash-test Workers.
 * `npm start` still applies them for real, and the dev-commands test runs it.
 *
 * Kept in node_modules/.cache under a hash of what decides the result: wrangler.toml's databases
 * (their ids name the local files) and every migration file's name and text. A state is built in a
 * folder of its own and renamed into place whole, so a reader never sees half of one; two processes
 * building at once both finish, and the second's rename fails harmlessly.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { d1Databases } from "../../../scripts/lib/databases";
import { withLocalDatabases } from "../../../scripts/lib/local-d1";
import { migrateAll } from "../../../scripts/lib/local-migrations";
import { ROOT, readWranglerToml } from "../../../scripts/lib/wrangler";

const CACHE = join(ROOT, "node_modules", ".cache", "migrated-state");

function migrationsKey(): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(readWranglerToml<{ d1_databases?: unknown }>().d1_databases ?? []));
  for (const { binding, migrationsDir } of d1Databases()) {
    const dir = join(ROOT, migrationsDir);
    // The files `migrateAll` applies: the folder's `.sql` files, by name.
    for (const name of readdirSync(dir)
      .filter((file) => file.endsWith(".sql"))
      .sort()) {
      hash.update(`\0${binding}\0${name}\0`);
      hash.update(readFileSync(join(dir, name)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/** The folder of the current migrated state (never written to: copy it), built if missing. */
export async function migratedTemplate(): Promise<string> {
  const key = migrationsKey();
  const ready = join(CACHE, key);
  if (existsSync(ready)) return ready;
  mkdirSync(CACHE, { recursive: true });
  // Built beside its final place (the same file system, so the rename is atomic).
  const building = mkdtempSync(join(CACHE, "building-"));
  try {
    await withLocalDatabases((databases) => migrateAll(databases, () => {}), building);
    renameSync(building, ready);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(ready)) throw error;
    // Another process put the same state in place first.
  }
  // States of older migrations are of no further use.
  for (const name of readdirSync(CACHE)) {
    if (name !== key && !name.startsWith("building-"))
      rmSync(join(CACHE, name), { recursive: true, force: true });
  }
  return ready;
}
