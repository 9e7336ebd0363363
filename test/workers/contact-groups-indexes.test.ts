import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { contactGroupQueries } from "../../src/features/contact-groups/contact-groups.repo";
import {
  customersByKeyQuery,
  insertMembers,
  memberPageQuery,
} from "../../src/features/contact-groups/members.repo";
import { callJson, db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type MemberList = {
  data: Array<{ email: string }>;
  pagination: { limit: number; offset: number; total: number };
};

describe("contact group queries are served by indexes", () => {
  it("GET /v1/contact-groups: the page and its total", async () => {
    const { page, total } = contactGroupQueries(db(), "acc_X", 50, 0);
    expectIndexed(await planOf(page), "contact_groups");
    expectIndexed(await planOf(total), "contact_groups");
  });

  it("GET /v1/contact-groups/{id}/members: the page walks the group's index and finds customers by id", async () => {
    const plan = await planOf(memberPageQuery(db(), "acc_X", "grp_X", 50, 0));
    expectIndexed(plan, "contact_group_members");
    expectIndexed(plan, "customers");
  });

  it.each([
    ["email", "customers_account_email (account_id=? AND email=?)"],
    ["id", "sqlite_autoindex_customers_1 (id=?)"],
  ] as const)("adding members by %s finds each customer with one index lookup", async (column, lookup) => {
    const key = { column, values: ["a", "b"] };
    for (const query of [customersByKeyQuery("acc_X", key), insertMembers("acc_X", "grp_X", key, 0)]) {
      const plan = await planOf(query);
      expectIndexed(plan, "customers");
      expect(plan.join("\n")).toContain(`SEARCH c USING INDEX ${lookup}`);
    }
    expectIndexed(await planOf(insertMembers("acc_X", "grp_X", key, 0)), "contact_groups");
  });
});

describe("a group of 100,000 members", () => {
  it("answers any page with the exact total, read from member_count rather than counted", async () => {
    const ws = await seedWorkspace();
    const { body: group } = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: ws.token,
      body: { name: "Everyone" },
    });
    const now = Date.now();
    // Seeded in SQL: 100,000 customers, each a member, the i-th added at now + i.
    await env.DB_2.batch([
      env.DB_2.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
         INSERT INTO customers (id, account_id, email, created_at, updated_at)
         SELECT printf('cus_big%06d', i), ?1, printf('big%06d@example.com', i), ?2, ?2 FROM n`,
      ).bind(ws.accountId, now),
      env.DB_2.prepare(
        `INSERT INTO contact_group_members (group_id, customer_id, account_id, created_at)
         SELECT ?1, id, account_id, ?3 + CAST(substr(id, 8) AS INTEGER) FROM customers WHERE account_id = ?2`,
      ).bind(group.id, ws.accountId, now),
    ]);

    const started = performance.now();
    const first = await callJson<MemberList>("GET", `/v1/contact-groups/${group.id}/members`, {
      token: ws.token,
    });
    const elapsed = performance.now() - started;
    expect(first.body.pagination).toEqual({ limit: 50, offset: 0, total: 100_000 });
    expect(first.body.data[0]?.email).toBe("big099999@example.com");
    // Generous for a shared machine; counting 100,000 rows per page would not be needed at all.
    expect(elapsed).toBeLessThan(2_000);
    const last = await callJson<MemberList>(
      "GET",
      `/v1/contact-groups/${group.id}/members?offset=99990&limit=20`,
      {
        token: ws.token,
      },
    );
    expect(last.body.pagination.total).toBe(100_000);
    expect(last.body.data.map((m) => m.email)).toEqual(
      Array.from({ length: 10 }, (_, i) => `big${String(9 - i).padStart(6, "0")}@example.com`),
    );

    // The total is the kept count: set it apart from the rows and the list reports it.
    await env.DB_2.prepare("UPDATE contact_groups SET member_count = 123456 WHERE id = ?")
      .bind(group.id)
      .run();
    const kept = await callJson<MemberList>("GET", `/v1/contact-groups/${group.id}/members?limit=1`, {
      token: ws.token,
    });
    expect(kept.body.pagination.total).toBe(123_456);
  });
});
