import { mapAtMost } from "../lib/at-most";
import { LEGACY_SHARD } from "./directory/workspaces";

/** Whatever a binding is, whether it answers as a D1 database. */
const isD1 = (binding: unknown): binding is D1Database =>
  typeof binding === "object" && binding !== null && "prepare" in binding && "batch" in binding;

/**
 * The workspace shards, by binding name, in the order `SHARDS` (wrangler.toml) lists them: each a
 * D1 database bound under that name. Adding one is a binding, a name here and a deploy.
 */
export function shardNames(env: { SHARDS?: string }): string[] {
  const names = (env.SHARDS ?? "").split(/[\s,]+/).filter(Boolean);
  return names.length > 0 ? names : [LEGACY_SHARD];
}

/**
 * The D1 database of a workspace shard, by its binding name (`DB`...; the directory's
 * `workspaces.shard`). A name wrangler.toml does not bind is a deployment error, not a request's.
 */
export function shardD1(env: object, shard: string = LEGACY_SHARD): D1Database {
  const binding = (env as Record<string, unknown>)[shard];
  if (!isD1(binding)) throw new Error(`No D1 binding named ${shard} for a workspace shard`);
  return binding;
}

const shardEnvs = new WeakMap<object, Map<string, object>>();

/**
 * `env` as the code below an entry point sees it once it knows the workspace's shard: its `DB` is
 * that shard. Everything that reads a workspace's rows opens `env.DB`, so an entry point that hands
 * this on (a request's context, a queue batch's emails of one shard, a cron run per shard) sends
 * every query of that work to the right database without any of it naming shards. Made once per
 * env and shard.
 */
export function envFor<E extends object>(env: E, shard: string): E {
  if (shard === LEGACY_SHARD) return env;
  let byShard = shardEnvs.get(env);
  if (!byShard) {
    byShard = new Map();
    shardEnvs.set(env, byShard);
  }
  let scoped = byShard.get(shard);
  if (!scoped) {
    scoped = { ...env, DB: shardD1(env, shard), SHARD: shard };
    byShard.set(shard, scoped);
  }
  return scoped as E;
}

/**
 * The shard an env's `DB` is (see `envFor`): what work handed to another invocation (a webhook
 * sender) carries, so that it opens the same database.
 */
export const shardOfEnv = (env: object): string => (env as { SHARD?: string }).SHARD ?? LEGACY_SHARD;

/** Every shard's env (see `envFor`), in `SHARDS` order: for work that runs in each (cron jobs). */
export const everyShard = <E extends { SHARDS?: string }>(env: E): Array<{ shard: string; env: E }> =>
  shardNames(env).map((shard) => ({ shard, env: envFor(env, shard) }));

/**
 * Asks every shard (`find` runs on each, six at a time: Workers' connections at once), and answers
 * the first, in `SHARDS` order, that found something, with its shard. For a link made before links
 * named their workspace: its id is unique in the service, so at most one shard has it. One read per
 * shard, in parallel.
 */
export async function findInShards<T, E extends { SHARDS?: string }>(
  env: E,
  find: (shardEnv: E) => Promise<T | null | undefined>,
): Promise<{ shard: string; found: T } | null> {
  const answers = await mapAtMost(everyShard(env), async ({ shard, env: scoped }) => ({
    shard,
    found: await find(scoped),
  }));
  const hit = answers.find((answer) => answer.found !== null && answer.found !== undefined);
  return hit ? { shard: hit.shard, found: hit.found as T } : null;
}
