import { readWranglerToml } from "./wrangler";

/** One D1 database of `wrangler.toml`: its binding and the folder of its migrations. */
export interface D1Database {
  binding: string;
  migrationsDir: string;
}

/**
 * Every D1 database `wrangler.toml` declares, in its order: the directory, every workspace shard
 * and the request logs. Read from the file, so a shard added there is migrated by every command
 * that migrates (`npm start`, `npm run db:migrate`, `npm run deploy`, the tests).
 */
export function d1Databases(configPath?: string): D1Database[] {
  const config = readWranglerToml<{
    d1_databases?: Array<{ binding: string; migrations_dir?: string }>;
  }>(configPath);
  return (config.d1_databases ?? []).map((database) => ({
    binding: database.binding,
    migrationsDir: database.migrations_dir ?? "migrations",
  }));
}

/**
 * The workspace shards `wrangler.toml` lists in its `SHARDS` var, in order (the Worker reads the same
 * var: src/db/shards.ts); `DB` alone when the var is missing, as before there were shards.
 */
export function shardNames(configPath?: string): string[] {
  const config = readWranglerToml<{ vars?: { SHARDS?: string } }>(configPath);
  const names = (config.vars?.SHARDS ?? "").split(/[\s,]+/).filter(Boolean);
  return names.length > 0 ? names : ["DB"];
}
