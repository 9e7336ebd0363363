import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPlatformProxy, unstable_splitSqlQuery } from "wrangler";
import { d1Databases } from "./databases";
import { ROOT, readWranglerToml } from "./wrangler";

/** wrangler's own record of applied migrations (its default `migrations_table`). */
const MIGRATIONS_TABLE = "d1_migrations";

/**
 * The local D1 databases `wrangler.toml` declares, open in one local runtime (wrangler's
 * `getPlatformProxy`) for `work`: those of `.wrangler/state`, which `wrangler dev` and
 * `wrangler d1 execute --local` use, or of the state directory `persistTo` names, as their
 * `--persist-to` does.
 */
export async function withLocalDatabases<T>(
  work: (databases: Record<string, D1Database>) => Promise<T>,
  persistTo = join(ROOT, ".wrangler", "state"),
): Promise<T> {
  const configDir = d1OnlyConfig();
  try {
    const proxy = await getPlatformProxy<Record<string, D1Database>>({
      configPath: join(configDir, "wrangler.json"),
      // `--persist-to X` keeps its state under X/v3; this option names that folder itself.
      persist: { path: join(persistTo, "v3") },
    });
    try {
      return await work(proxy.env);
    } finally {
      await proxy.dispose();
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

/**
 * A configuration of `wrangler.toml`'s D1 databases alone (the same ids, so the same local files),
 * in a folder of its own: with the whole file, the runtime warned that the Worker's Durable
 * Objects and Workflow "will not work in local development", which is true of this runtime only.
 */
function d1OnlyConfig(): string {
  const config = readWranglerToml<{ compatibility_date: string; d1_databases: unknown[] }>();
  const dir = mkdtempSync(join(tmpdir(), "local-d1-"));
  const { compatibility_date, d1_databases } = config;
  writeFileSync(
    join(dir, "wrangler.json"),
    JSON.stringify({ name: "local-d1", compatibility_date, d1_databases }),
  );
  return dir;
}

/**
 * Runs a file's worth of SQL as `wrangler d1 execute --local --file` does: split into statements
 * by wrangler's own splitter, run in one batch.
 */
export async function executeLocal(db: D1Database, sql: string): Promise<void> {
  const statements = unstable_splitSqlQuery(sql).map((query) => db.prepare(query));
  if (statements.length > 0) await db.batch(statements);
}

/**
 * Applies the pending migrations of every local D1 database `wrangler.toml` declares, exactly as
 * `wrangler d1 migrations apply --local` does: its table of applied names, the files of each
 * database's `migrations_dir` in name order, each one's statements split by wrangler's own
 * splitter and run with its row in that table in one batch. Written here rather than calling the
 * command because the command starts a fresh local runtime for every file (about 0.6 s each, ten
 * times that on a busy machine): sixty files in each of two shards made it 80 of a fresh
 * `npm start`'s 116 s. Here one runtime serves all of them. Prints and answers what it applied.
 */
export const applyLocalMigrations = (persistTo?: string, log: (line: string) => void = console.log) =>
  withLocalDatabases((databases) => migrateAll(databases, log), persistTo);

/** `applyLocalMigrations` on databases already open (`withLocalDatabases`). */
export async function migrateAll(
  databases: Record<string, D1Database>,
  log: (line: string) => void = console.log,
): Promise<Array<{ binding: string; applied: string[] }>> {
  const outcome: Array<{ binding: string; applied: string[] }> = [];
  for (const { binding, migrationsDir } of d1Databases()) {
    const db = databases[binding];
    if (!db) throw new Error(`No local D1 binding ${binding}`);
    const applied = await applyPending(db, join(ROOT, migrationsDir));
    const count = `${applied.length} migration${applied.length === 1 ? "" : "s"}`;
    log(`Local ${binding}: ${applied.length > 0 ? `applied ${count}, to ${applied.at(-1)}` : "up to date"}.`);
    outcome.push({ binding, applied });
  }
  return outcome;
}

async function applyPending(db: D1Database, dir: string): Promise<string[]> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        name       TEXT UNIQUE,
        applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
      )`,
    )
    .run();
  const { results } = await db
    .prepare(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`)
    .all<{ name: string }>();
  const done = new Set(results.map((row) => row.name));
  const pending = readdirSync(dir)
    .filter((name) => name.endsWith(".sql") && !done.has(name))
    .sort();
  for (const name of pending) {
    const statements = unstable_splitSqlQuery(readFileSync(join(dir, name), "utf8")).map((query) =>
      db.prepare(query),
    );
    statements.push(db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES (?)`).bind(name));
    try {
      await db.batch(statements);
    } catch (error) {
      throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return pending;
}
