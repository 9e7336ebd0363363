import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, seedInbox, seedUser, seedWorkspace } from "./helpers";

type Ticket = { id: string; inbox_id: string };
type Count = { facet: string; value: string; total: number };

/** What the trigger-kept counters hold for the account (rows at zero left out). */
async function kept(accountId: string) {
  const rows = await env.DB_2.prepare(
    "SELECT facet, value, total FROM ticket_facet_counts WHERE account_id = ? AND total <> 0",
  )
    .bind(accountId)
    .all<Count>();
  return rows.results.sort((a, b) => a.facet.localeCompare(b.facet) || a.value.localeCompare(b.value));
}

const COUNTED: Array<[string, string, string]> = [
  ["status", "status", "tickets"],
  ["priority", "priority", "tickets"],
  ["status_priority", "status || ':' || priority", "tickets"],
  ["inbox", "inbox_id", "tickets"],
  ["assignee", "assignee_id", "tickets"],
  ["tag", "tag_id", "ticket_tags"],
];

/** The same counts, counted from the tickets themselves. */
async function counted(accountId: string) {
  const all: Count[] = [];
  for (const [facet, value, table] of COUNTED) {
    const rows = await env.DB_2.prepare(
      `SELECT ?1 AS facet, ${value} AS value, count(*) AS total FROM ${table}
       WHERE account_id = ?2 AND ${value} IS NOT NULL GROUP BY 2`,
    )
      .bind(facet, accountId)
      .all<Count>();
    all.push(...rows.results);
  }
  return all.sort((a, b) => a.facet.localeCompare(b.facet) || a.value.localeCompare(b.value));
}

async function expectExact(accountId: string) {
  const truth = await counted(accountId);
  expect(await kept(accountId)).toEqual(truth);
  return truth;
}

async function setup() {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  const other = await seedInbox(ws.accountId);
  const agent = await seedUser(ws.accountId);
  const create = async (inboxId: string, extra: Record<string, unknown> = {}) =>
    (
      await callJson<Ticket>("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inboxId, customer: { email: "ada@example.com" }, subject: "x", ...extra },
      })
    ).body;
  const act = (id: string, body: Record<string, unknown>) =>
    call("POST", `/v1/tickets/${id}/manage`, { token: ws.token, body });
  return { ws, inbox, other, agent, create, act };
}

describe("trigger-kept ticket counts per filter", () => {
  it("stay exact through creates, edits, tags, merges, deletes and inbox, tag and user removal", async () => {
    const { ws, inbox, other, agent, create, act } = await setup();
    const a = await create(inbox.id, { tags: ["vip", "billing"], priority: "high" });
    const b = await create(inbox.id, { tags: ["vip"], assignee_id: agent.id });
    const c = await create(other.id, { tags: ["VIP"] });
    await expectExact(ws.accountId);

    await call("PATCH", `/v1/tickets/${a.id}`, {
      token: ws.token,
      body: { status: "pending", priority: "low" },
    });
    await act(b.id, { action: "close" });
    await act(c.id, { action: "assign", user_id: agent.id });
    await act(a.id, { action: "remove_tags", tags: ["billing"] });
    await act(b.id, { action: "add_tags", tags: ["billing"] });
    await expectExact(ws.accountId);

    await act(a.id, { action: "merge", into_ticket_id: b.id });
    await expectExact(ws.accountId);
    await call("DELETE", `/v1/tickets/${a.id}`, { token: ws.token });
    await expectExact(ws.accountId);

    const vip = await env.DB_2.prepare("SELECT id FROM tags WHERE inbox_id = ? AND name_key = 'vip'")
      .bind(inbox.id)
      .first<{ id: string }>();
    expect((await call("DELETE", `/v1/tags/${vip?.id}`, { token: ws.token })).status).toBe(200);
    // What removing a user from the workspace does to its tickets (users.service).
    await env.DB_2.prepare("UPDATE tickets SET assignee_id = NULL WHERE assignee_id = ?")
      .bind(agent.id)
      .run();
    await expectExact(ws.accountId);

    await env.DB_2.prepare("DELETE FROM inboxes WHERE id = ?").bind(other.id).run();
    const left = await expectExact(ws.accountId);
    expect(left.find((row) => row.facet === "inbox")).toEqual({ facet: "inbox", value: inbox.id, total: 1 });
  });

  it("stay exact under concurrent edits of one ticket", async () => {
    const { ws, inbox, agent, create, act } = await setup();
    const ticket = await create(inbox.id);
    const statuses = ["pending", "on_hold", "closed", "open", "resolved", "spam"];
    const priorities = ["low", "high", "urgent", "normal"];
    await Promise.all([
      ...statuses.map((status, i) =>
        call("PATCH", `/v1/tickets/${ticket.id}`, {
          token: ws.token,
          body: { status, priority: priorities[i % priorities.length] },
        }),
      ),
      act(ticket.id, { action: "assign", user_id: agent.id }),
      act(ticket.id, { action: "add_tags", tags: ["a", "b"] }),
      act(ticket.id, { action: "remove_tags", tags: ["a"] }),
      act(ticket.id, { action: "unassign" }),
    ]);
    await expectExact(ws.accountId);
  });

  it("answer each filter's total as count(*) of its matches would", async () => {
    const { ws, inbox, other, agent, create } = await setup();
    await create(inbox.id, { tags: ["vip"], priority: "high" });
    await create(inbox.id, { tags: ["vip"], assignee_id: agent.id, priority: "high" });
    await create(other.id, { tags: ["Vip"], status: "pending" });
    await create(other.id, { tags: ["other"] });
    const cases: Array<[string, string, number]> = [
      ["status=open", "status = 'open'", 3],
      ["priority=high", "priority = 'high'", 2],
      ["status=open&priority=high", "status = 'open' AND priority = 'high'", 2],
      [`inbox_id=${other.id}`, `inbox_id = '${other.id}'`, 2],
      [`assignee_id=${agent.id}`, `assignee_id = '${agent.id}'`, 1],
      [
        "tag=VIP",
        "id IN (SELECT ticket_id FROM ticket_tags tt JOIN tags tg ON tg.id = tt.tag_id WHERE tg.name_key = 'vip')",
        3,
      ],
      ["status=spam", "status = 'spam'", 0],
      ["inbox_id=inb_none", "inbox_id = 'inb_none'", 0],
      ["tag=none", "0", 0],
    ];
    for (const [query, where, expected] of cases) {
      const truth = await env.DB_2.prepare(
        `SELECT count(*) AS n FROM tickets WHERE account_id = ? AND ${where}`,
      )
        .bind(ws.accountId)
        .first<{ n: number }>();
      const list = await callJson<{ pagination: { total: number } }>("GET", `/v1/tickets?${query}`, {
        token: ws.token,
      });
      expect([query, list.body.pagination.total]).toEqual([query, truth?.n]);
      expect([query, truth?.n]).toEqual([query, expected]);
    }
  });

  it("are backfilled by their migration for tickets that existed before it", async () => {
    const { ws, inbox, agent, create, act } = await setup();
    const a = await create(inbox.id, { tags: ["vip"], assignee_id: agent.id });
    await create(inbox.id, { tags: ["vip", "later"], priority: "urgent" });
    await act(a.id, { action: "close" });
    const truth = await expectExact(ws.accountId);
    const migration = env.TEST_MIGRATIONS.DB?.find((m) => m.name.endsWith("ticket_facet_counts.sql"));
    const backfill =
      migration?.queries.filter((q) => /^\s*(--.*\n)*\s*INSERT INTO ticket_facet_counts/.test(q)) ?? [];
    expect(backfill).toHaveLength(6);
    await env.DB_2.prepare("DELETE FROM ticket_facet_counts WHERE account_id = ?").bind(ws.accountId).run();
    for (const query of backfill) await env.DB_2.prepare(query).run();
    expect(await kept(ws.accountId)).toEqual(truth);
  });
});
