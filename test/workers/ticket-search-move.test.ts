import { describe, expect, it } from "vitest";
import { shardD1Of } from "./helpers";
import { searchDesk } from "./ticket-search-helpers";
import { runMove } from "./workspace-move-helpers";

const indexRows = async (shard: string, accountId: string) =>
  (
    await shardD1Of(shard)
      .prepare(
        `SELECT count(*) AS n FROM ticket_search, search_accounts sa WHERE sa.account_id = ?
         AND ticket_search.rowid >= sa.n << 37 AND ticket_search.rowid < (sa.n + 1) << 37`,
      )
      .bind(accountId)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("the search index follows a workspace move", () => {
  it("is rebuilt on the target by its triggers and emptied on the source", async () => {
    const { ws, create, message, ids } = await searchDesk();
    const t = await create("Moving day", {
      tags: ["relocation"],
      customer: { email: "mover@example.com", name: "Ingrid Mover" },
    });
    await message(t.id, "The armadillo crate is heavy");
    const before = await indexRows("DB_2", ws.accountId);
    expect(before).toBeGreaterThanOrEqual(3);
    const reports = await runMove(ws.accountId, "DB");
    expect(reports.at(-1)?.step).toBe("done");
    expect(await indexRows("DB", ws.accountId)).toBe(before);
    expect(await indexRows("DB_2", ws.accountId)).toBe(0);
    for (const q of ["armadillo", "relocation", "Ingrid", "moving day"])
      expect(await ids(q), q).toEqual([t.id]);
  });
});
