import { shardNames } from "./databases";
import { executeSql } from "./sql";
import { sqlText, type Target } from "./wrangler";

/**
 * Where a new workspace goes: the shard the operator pins (`--shard`), else the one the directory
 * names for the fewest workspaces, the first in `SHARDS` order on a tie. Counting workspaces is a
 * round robin that also fills a shard added later first. It is not "least full" in bytes: local D1
 * reports no database size (`PRAGMA page_count` is refused, `meta.size_after` is remote only), and a
 * workspace's size is unknown when it is made; an operator who sees one shard fuller pins new
 * workspaces elsewhere, or moves one (`npm run workspace:move`).
 */
export async function chooseShard(target: Target, pinned?: string): Promise<string> {
  const shards = shardNames();
  if (pinned !== undefined) {
    if (!shards.includes(pinned))
      throw new Error(`--shard must be one of ${shards.join(", ")} (wrangler.toml SHARDS)`);
    return pinned;
  }
  const [counted] = await executeSql(
    "SELECT shard, count(*) AS n FROM workspaces GROUP BY shard;",
    target,
    "DIRECTORY",
  );
  const held = new Map((counted?.results ?? []).map((row) => [String(row.shard), Number(row.n)]));
  return shards.reduce((best, shard) => ((held.get(shard) ?? 0) < (held.get(best) ?? 0) ? shard : best));
}

/** The shard the directory names for a workspace; `DB` for one it does not name (made before shards). */
export async function shardOfWorkspace(accountId: string, target: Target): Promise<string> {
  const [found] = await executeSql(
    `SELECT shard FROM workspaces WHERE account_id = ${sqlText(accountId)};`,
    target,
    "DIRECTORY",
  );
  return String(found?.results[0]?.shard ?? "DB");
}
