import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseSearch } from "../../src/features/tickets/search-query";
import { ticketTotalQuery } from "../../src/features/tickets/tickets.repo";
import { BUILTIN_VIEWS } from "../../src/features/views/builtin-views";
import { ticketFilterOf } from "../../src/features/views/view-counts";
import { visibleViewsQuery } from "../../src/features/views/views.repo";
import type { ViewFilters } from "../../src/features/views/views.schemas";
import { callJson, db, seedInbox, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const TICKETS = 3000;
let accountId = "";
let token = "";

/** A few thousand tickets (a quarter assigned to usr_plan, a third open), analysed. */
beforeAll(async () => {
  const ws = await seedWorkspace();
  accountId = ws.accountId;
  token = ws.token;
  const inboxId = (await seedInbox(accountId)).id;
  const now = Date.now();
  await env.DB_2.batch([
    env.DB_2.prepare(
      "INSERT INTO customers (id, account_id, email, created_at, updated_at) VALUES ('cus_vplan', ?1, 'v@example.com', ?2, ?2)",
    ).bind(accountId, now),
    env.DB_2.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${TICKETS})
       INSERT INTO tickets (id, account_id, inbox_id, customer_id, number, client_id, subject, status, priority, assignee_id, shared_uuid, created_at, updated_at)
       SELECT 'tkv_vplan' || n, ?1, ?2, 'cus_vplan', n, 'V-' || n, 'Plan ' || n,
         CASE n % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'pending' ELSE 'closed' END, 'normal',
         CASE WHEN n % 4 = 0 THEN 'usr_plan' END, 'shr_vplan' || n, ?3 + n, ?3 + n FROM seq`,
    ).bind(accountId, inboxId, now),
    // Not `ticket_views`, nearly empty here: its statistics would outlive this file and mislead a
    // later one's planner (storage is shared across files).
    ...["tickets", "ticket_facet_counts"].map((table) => env.DB_2.prepare(`ANALYZE ${table}`)),
  ]);
});

const builtin = (id: string) => BUILTIN_VIEWS.find((v) => v.id === id)?.filters ?? {};
const planOfCount = (filters: ViewFilters, me: string | null = "usr_plan") => {
  const filter = ticketFilterOf(filters, me);
  if (!filter) throw new Error("no filter");
  return planOf(
    ticketTotalQuery(db(), {
      ...filter,
      q: filter.q === undefined ? undefined : parseSearch(filter.q),
      accountId,
    }),
  );
};

describe("view counts on a seeded workspace", () => {
  it("All open, and one status, priority, inbox, assignee or tag alone, read one counter row", async () => {
    const counted: ViewFilters[] = [builtin("vw_all_open"), { assignee_id: "me" }, { priority: "low" }];
    for (const filters of counted) {
      const plan = await planOfCount(filters);
      expect(plan.join("\n"), JSON.stringify(filters)).not.toContain("tickets");
      expectIndexed(plan, "ticket_facet_counts");
    }
  });

  it("Unassigned and Mine count the index entries of their open tickets only", async () => {
    for (const id of ["vw_unassigned", "vw_mine"]) {
      const plan = await planOfCount(builtin(id));
      expect(plan.join("\n"), id).toMatch(
        /SEARCH tickets USING COVERING INDEX tickets_account_assignee_status_created \(account_id=\? AND assignee_id(=\?| IS NULL) AND status=\?\)/,
      );
    }
  });

  it("any other combination counts along an index, never a scan", async () => {
    const combos: ViewFilters[] = [
      { status: "open", customer_id: "cus_vplan" },
      { customer_id: "cus_vplan" },
      { status: "open", priority: "high", assignee_id: "none" },
      { assignee_id: "none" },
      {},
    ];
    for (const filters of combos) {
      const plan = await planOfCount(filters);
      expectIndexed(plan, "ticket");
      expect(plan.join("\n"), JSON.stringify(filters)).not.toMatch(/SCAN tickets\b(?! USING)/);
    }
  });

  it("the counts agree with the tickets", async () => {
    const list = (
      await callJson<{ data: Array<{ id: string; count: number | null }> }>(
        "GET",
        "/v1/views?user_id=usr_plan",
        {
          token,
        },
      )
    ).status;
    // usr_plan is not a user of the workspace: the API refuses to read as it.
    expect(list).toBe(400);
    const rows = await env.DB_2.prepare(
      `SELECT sum(status = 'open' AND assignee_id IS NULL) AS unassigned, sum(status = 'open') AS open
       FROM tickets WHERE account_id = ?`,
    )
      .bind(accountId)
      .first<{ unassigned: number; open: number }>();
    const views = (
      await callJson<{ data: Array<{ id: string; count: number | null }> }>("GET", "/v1/views", { token })
    ).body.data;
    expect(views.find((v) => v.id === "vw_unassigned")?.count).toBe(rows?.unassigned);
    expect(views.find((v) => v.id === "vw_all_open")?.count).toBe(rows?.open);
  });

  it("the list of views walks the workspace's views on its index", async () => {
    for (const user of [null, "usr_plan"])
      expectIndexed(await planOf(visibleViewsQuery(db(), accountId, user)), "ticket_views");
  });
});
