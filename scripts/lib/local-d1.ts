import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, readWranglerToml } from "./wrangler";
import { getPlatformProxy, unstable_splitSqlQuery } from "./wrangler-api";

/** What one statement answered, as `wrangler d1 execute --json` prints it: its rows and D1's meta. */
export interface StatementRows {
  results: Record<string, unknown>[];
  meta?: { duration?: number };
}

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
 * by wrangler's own splitter, run in one batch (a transaction); answers each statement's rows.
 */
export async function executeLocal(db: D1Database, sql: string): Promise<StatementRows[]> {
  const statements = unstable_splitSqlQuery(sql).map((query) => db.prepare(query));
  if (statements.length === 0) return [];
  const answered = await db.batch<Record<string, unknown>>(statements);
  return answered.map(({ results, meta }) => ({ results, meta }));
}
