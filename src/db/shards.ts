import { LEGACY_SHARD } from "./directory/workspaces";

/** Whatever a binding is, whether it answers as a D1 database. */
const isD1 = (binding: unknown): binding is D1Database =>
  typeof binding === "object" && binding !== null && "prepare" in binding && "batch" in binding;

/**
 * The D1 database of a workspace shard, by its binding name (`DB`, `DB_2`...; the directory's
 * `workspaces.shard`). A name wrangler.toml does not bind is a deployment error, not a request's.
 */
export function shardD1(env: object, shard: string = LEGACY_SHARD): D1Database {
  const binding = (env as Record<string, unknown>)[shard];
  if (!isD1(binding)) throw new Error(`No D1 binding named ${shard} for a workspace shard`);
  return binding;
}
