import { describe, expect, it } from "vitest";
import { SEARCHED_ROWS } from "../../src/features/tickets/search.repo";
import { callJson, shardD1Of, TEST_SHARD } from "./helpers";
import { searchDesk } from "./ticket-search-helpers";

describe("a search's work is bounded by its workspace and by the newest hits", () => {
  it("ranks the newest SEARCHED_ROWS matching rows of a very common word, and counts their tickets", async () => {
    const { ws, inbox, search } = await searchDesk();
    const extra = SEARCHED_ROWS + 50;
    // Tickets straight in SQL (the index's triggers write their rows as for the API's writes):
    // the first of them is the oldest.
    await shardD1Of(TEST_SHARD)
      .prepare(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?3)
         INSERT INTO tickets (id, account_id, inbox_id, customer_id, number, client_id, subject, status,
           priority, shared_uuid, metadata, message_count, created_at, updated_at)
         SELECT 'tkv_bound' || n, ?1, ?2, (SELECT id FROM customers WHERE account_id = ?1 LIMIT 1),
           1000 + n, 'TKT-B' || n, 'Ubiquitous wombat ' || printf('%05d', n), 'open', 'normal', 'shr_bound' || n || ?1,
           '{}', 0, 1700000000000 + n, 1700000000000 + n FROM seq`,
      )
      .bind(ws.accountId, inbox.id, extra)
      .run();
    const found = await search("wombat", "&limit=100");
    expect(found.pagination.total).toBe(SEARCHED_ROWS);
    expect(found.data).toHaveLength(100);
    // A phrase in fewer rows than the bound finds any ticket, the oldest as the newest.
    for (const n of [1, extra]) {
      const subject = `Ubiquitous wombat ${String(n).padStart(5, "0")}`;
      const one = await search(`"${subject}"`);
      expect(one.data.map((t) => t.subject)).toEqual([subject]);
    }
  });

  it("a view with words counts the tickets its search lists", async () => {
    const { ws, create } = await searchDesk();
    await create("Parcel lost in transit");
    await create("Parcel arrived damaged");
    await create("Invoice question");
    const view = await callJson<{ id: string; count: number }>("POST", "/v1/views", {
      token: ws.token,
      body: { name: "Parcels", filters: { q: "parcel" } },
    });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    const listed = await callJson<{ data: Array<{ id: string; count: number }> }>("GET", "/v1/views", {
      token: ws.token,
    });
    expect(listed.body.data.find((v) => v.id === view.body.id)?.count).toBe(2);
    const page = await callJson<{ data: unknown[]; pagination: { total: number } }>(
      "GET",
      `/v1/views/${view.body.id}/tickets`,
      { token: ws.token },
    );
    expect(page.body.pagination.total).toBe(2);
    expect(page.body.data).toHaveLength(2);
  });

  it("names the workspace as a rowid range of the index, and checks a ticket's words by rowid", async () => {
    const { ticketQueries } = await import("../../src/features/tickets/tickets.repo");
    const { parseSearch } = await import("../../src/features/tickets/search-query");
    const { db } = await import("./helpers");
    const { planOf } = await import("./query-plan");
    const { page, total } = ticketQueries(
      db(),
      { accountId: "acc_X", q: parseSearch("refund parcel -paypal") },
      50,
      0,
    );
    const lines = (await planOf(page)).filter((l) => l.includes("ticket_search VIRTUAL TABLE"));
    // The candidates: MATCH within the range (> and <), walked by rowid descending.
    expect(lines.some((l) => /INDEX \d+:M\d*[<>]{2}/.test(l))).toBe(true);
    // The per-ticket checks: MATCH at given rowids (=).
    expect(lines.some((l) => /INDEX \d+:=M/.test(l))).toBe(true);
    for (const line of lines) expect(line).toMatch(/INDEX \d+:\S*M/);
    // The hits are the outer loop and each ticket is read by its key: never the workspace's
    // tickets walked by an account index and probed against the hits.
    for (const query of [page, total]) {
      const plan = await planOf(query);
      expect(
        plan.some((l) => /^SCAN hits\b/.test(l)),
        plan.join("\n"),
      ).toBe(true);
      expect(
        plan.some((l) => /SEARCH tickets USING INDEX sqlite_autoindex_tickets_1 \(id=\?\)/.test(l)),
      ).toBe(true);
      expect(
        plan.filter((l) => /(SEARCH|SCAN) tickets USING (COVERING )?INDEX tickets_account/.test(l)),
      ).toEqual([]);
    }
  });

  it("reads a page's excerpts from the search's own candidates, one lookup by rowid a ticket", async () => {
    const { excerptsSql } = await import("../../src/features/tickets/search.repo");
    const { parseSearch } = await import("../../src/features/tickets/search-query");
    const { planOf } = await import("./query-plan");
    const plan = await planOf(excerptsSql("acc_X", parseSearch("refund"), ["tkt_A", "tkt_B"]));
    const text = plan.join("\n");
    // The candidates: MATCH within the workspace's range, newest first (bounded); then each page
    // ticket's chosen row, the outer loop, looked up at its rowid: never every row of a common word.
    expect(
      plan.some((l) => /ticket_search VIRTUAL TABLE INDEX \d+:M\d*[<>]{2}/.test(l)),
      text,
    ).toBe(true);
    const outer = plan.indexOf("SCAN best");
    expect(outer, text).toBeGreaterThanOrEqual(0);
    const lookup = plan.findIndex((l, i) => i > outer && l.includes("ticket_search VIRTUAL TABLE"));
    expect(plan[lookup], text).toMatch(/INDEX \d+:=M/);
    expect(text).not.toMatch(/\b(tickets|messages)\b/);
  });
});
