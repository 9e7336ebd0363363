import { env } from "cloudflare:workers";
import { is, SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { expect } from "vitest";

/** The plan of a drizzle query: each line of SQLite's EXPLAIN QUERY PLAN. */
export async function planOf(
  query: { toSQL(): { sql: string; params: unknown[] } } | SQL,
  database: D1Database = env.DB_2,
): Promise<string[]> {
  const { sql, params } = is(query, SQL) ? new SQLiteSyncDialect().sqlToQuery(query) : query.toSQL();
  const rows = await database
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

/**
 * Every line that touches `table` reads an index: a secondary one, the rowid, or (a table WITHOUT
 * ROWID) its primary key searched by a constraint; and nothing is sorted in a temporary b-tree.
 */
export function expectIndexed(plan: string[], table: string) {
  const touching = plan.filter((line) => line.includes(table));
  expect(touching.length, plan.join("\n")).toBeGreaterThan(0);
  for (const line of touching)
    expect(line, plan.join("\n")).toMatch(
      /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|^SEARCH \S+ USING PRIMARY KEY \(/,
    );
  expect(plan.join("\n")).not.toContain("USE TEMP B-TREE");
}

/**
 * The plan of a fair sweep (src/webhooks/fair-share.ts): `table` is only searched, never scanned,
 * its groups skipped through `index` (`group > ?`) and each group's share a range of it; every
 * other table is searched by key. The one sort allowed is the final order of the rows taken,
 * which are at most the sweep's budget.
 */
export function expectFairSweep(plan: string[], table: string, group: string, index: string) {
  const text = plan.join("\n");
  expect(text).not.toMatch(/^SCAN (?!grp$|ready$|share$|CONSTANT ROW$)/m);
  for (const line of plan.filter((l) => l.startsWith(`SEARCH ${table} `)))
    expect(line, text).toMatch(new RegExp(`USING (COVERING )?INDEX ${index} \\(`));
  for (const line of plan.filter((l) => l.startsWith("SEARCH ")))
    expect(line, text).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
  expect(text).toContain(`${index} (${group}>?)`);
  expect(plan.filter((line) => line.includes("TEMP B-TREE"))).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
}
