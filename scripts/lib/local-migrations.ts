import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { d1Databases } from "./databases";
import { withLocalDatabases } from "./local-d1";
import { ROOT } from "./wrangler";
import { unstable_splitSqlQuery } from "./wrangler-api";

/** wrangler's own record of applied migrations (its default `migrations_table`). */
const MIGRATIONS_TABLE = "d1_migrations";

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
