import { describe, expect, it } from "vitest";
import {
  columnsOf,
  MOVED_TABLES,
  NOT_MOVED,
  SEARCH_INDEX_TABLES,
} from "../../src/features/workspace-moves/tables";
import { shardD1Of } from "./helpers";

/** A table added to the shards' migrations must be named by the move, or the move would leave it behind. */
describe("the tables a workspace move copies", () => {
  it("are every table of the shard's migrations, each with the columns its migrations made", async () => {
    const { results } = await shardD1Of()
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
      )
      .all<{ name: string }>();
    const tables = results.map((r) => r.name);
    const named = new Set([...MOVED_TABLES.map((t) => t.table), ...NOT_MOVED, ...SEARCH_INDEX_TABLES]);
    expect(tables.filter((t) => !named.has(t))).toEqual([]);
    expect([...named].filter((t) => !tables.includes(t))).toEqual([]);
    for (const table of tables.filter((t) => !SEARCH_INDEX_TABLES.includes(t))) {
      const { results: columns } = await shardD1Of()
        .prepare("SELECT name FROM pragma_table_xinfo(?) ORDER BY cid")
        .bind(table)
        .all<{ name: string }>();
      expect({ table, columns: columns.map((c) => c.name).sort() }).toEqual({
        table,
        columns: columnsOf(table).sort(),
      });
    }
  });

  it("come after the tables their foreign keys name", async () => {
    const order = new Map<string, number>();
    MOVED_TABLES.forEach((t, i) => {
      if (!order.has(t.table)) order.set(t.table, i);
    });
    for (const [table, position] of order) {
      const { results } = await shardD1Of()
        .prepare('SELECT "table" AS parent FROM pragma_foreign_key_list(?)')
        .bind(table)
        .all<{ parent: string }>();
      for (const { parent } of results)
        expect({ table, before: (order.get(parent) ?? -1) < position }).toEqual({ table, before: true });
    }
  });
});
