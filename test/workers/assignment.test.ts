import { describe, expect, it } from "vitest";
import { assignmentWorkspace, patchUser, setRule, tally, ticketOf } from "./assignment-helpers";
import { callJson, eventsOf, seedUser, seedWorkspace } from "./helpers";

describe("assignment rules of an inbox", () => {
  it("answers the rule on the inbox: manual by default, settable, and refuses an unknown rule", async () => {
    const { ws, inbox } = await assignmentWorkspace("manual", 0);
    const got = await callJson("GET", `/v1/inboxes/${inbox.id}`, { token: ws.token });
    expect(got.body).toMatchObject({ assignment_rule: "manual" });
    await setRule(ws.token, inbox.id, "balanced");
    expect((await callJson("GET", `/v1/inboxes/${inbox.id}`, { token: ws.token })).body).toMatchObject({
      assignment_rule: "balanced",
    });
    const bad = await callJson("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: { assignment_rule: "random" },
    });
    expect(bad.status).toBe(400);
  });

  it("manual leaves new tickets unassigned", async () => {
    const { create } = await assignmentWorkspace("manual");
    expect((await create()).assignee_id).toBeNull();
  });

  it("round robin gives each agent a ticket in turn, and ticket.created carries the assignee", async () => {
    const { ws, ids, create } = await assignmentWorkspace("round_robin");
    const tickets = [];
    for (let i = 0; i < 6; i++) tickets.push(await create());
    const order = [...ids, ...ids];
    expect(tickets.map((t) => t.assignee_id)).toEqual(order);
    for (const t of tickets) expect((await ticketOf(ws.token, t.id)).assignee_id).toBe(t.assignee_id);
    const created = (await eventsOf(ws.accountId)).filter((e) => e.event === "ticket.created");
    expect(created.map((e) => e.data.ticket?.assignee_id)).toEqual(order);
    // The assignee's list and its trigger-kept total see the rule's assignments.
    const mine = await callJson<{ data: unknown[]; pagination: { total: number } }>(
      "GET",
      `/v1/tickets?assignee_id=${ids[0]}`,
      { token: ws.token },
    );
    expect([mine.body.data.length, mine.body.pagination.total]).toEqual([2, 2]);
    const none = await callJson<{ pagination: { total: number } }>("GET", "/v1/tickets?assignee_id=none", {
      token: ws.token,
    });
    expect(none.body.pagination.total).toBe(0);
    // No ticket.updated: the ticket was created assigned, as POST /v1/tickets with assignee_id does.
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).not.toContain("ticket.updated");
  });

  it("an explicit assignee_id wins and does not move the turn", async () => {
    const { ids, create } = await assignmentWorkspace("round_robin");
    expect((await create({ assignee_id: ids[2] })).assignee_id).toBe(ids[2]);
    expect((await create()).assignee_id).toBe(ids[0]);
  });

  it("balanced gives the agent with the fewest open tickets; resolved tickets do not count", async () => {
    const { ws, ids, create } = await assignmentWorkspace("balanced");
    const [a, b, c] = ids as [string, string, string];
    await create({ assignee_id: a });
    await create({ assignee_id: a });
    await create({ assignee_id: b });
    const done = await create({ assignee_id: c });
    await create({ assignee_id: c, status: "resolved" });
    await callJson("PATCH", `/v1/tickets/${done.id}`, { token: ws.token, body: { status: "closed" } });
    // Open: a 2, b 1, c 0.
    expect((await create()).assignee_id).toBe(c);
    // b 1, c 1: equals go in turn after the last chosen (c), so b.
    expect((await create()).assignee_id).toBe(b);
    expect((await create()).assignee_id).toBe(c);
  });

  it("skips agents who are away, disabled or at capacity; nobody left leaves the ticket unassigned", async () => {
    const { ws, ids, create } = await assignmentWorkspace("round_robin", 4);
    const [away, disabled, full, free] = ids as [string, string, string, string];
    await patchUser(ws.token, away, { available: false });
    await patchUser(ws.token, disabled, { status: "disabled" });
    expect(await patchUser(ws.token, full, { capacity: 1 })).toMatchObject({ capacity: 1, available: true });
    await create({ assignee_id: full });
    const got = [await create(), await create()];
    expect(got.map((t) => t.assignee_id)).toEqual([free, free]);
    await patchUser(ws.token, free, { capacity: 0 });
    const left = await create();
    expect(left.assignee_id).toBeNull();
    expect((await ticketOf(ws.token, left.id)).assignee_id).toBeNull();
    // Back from away: taken again.
    await patchUser(ws.token, away, { available: true });
    expect((await create()).assignee_id).toBe(away);
  });

  it("never chooses another workspace's users", async () => {
    const { ws, create } = await assignmentWorkspace("round_robin", 0);
    const other = await seedWorkspace();
    await seedUser(other.accountId);
    await seedUser(other.accountId);
    expect((await create()).assignee_id).toBeNull();
    const own = await seedUser(ws.accountId);
    expect((await create()).assignee_id).toBe(own.id);
    expect((await create()).assignee_id).toBe(own.id);
  });

  it("a retry with the Idempotency-Key answers the assignee the rule chose", async () => {
    const { ids, create } = await assignmentWorkspace("round_robin");
    const first = await create({}, { "Idempotency-Key": "assign-1" });
    const again = await create({}, { "Idempotency-Key": "assign-1" });
    expect(first.assignee_id).toBe(ids[0]);
    expect(again).toEqual(first);
  });
});

describe("users' availability and capacity", () => {
  it("are answered on the user and validated", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId);
    const got = await callJson("GET", `/v1/users/${user.id}`, { token: ws.token });
    expect(got.body).toMatchObject({ available: true, capacity: null });
    expect(await patchUser(ws.token, user.id, { available: false, capacity: 5 })).toMatchObject({
      available: false,
      capacity: 5,
    });
    expect(await patchUser(ws.token, user.id, { capacity: null })).toMatchObject({ capacity: null });
    for (const body of [{ capacity: -1 }, { capacity: 1.5 }, { capacity: 10_001 }, { available: "no" }]) {
      const bad = await callJson("PATCH", `/v1/users/${user.id}`, { token: ws.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("concurrent new tickets", () => {
  it("round robin stays fair: 12 at once over 3 agents give 4 each", async () => {
    const { ids, create } = await assignmentWorkspace("round_robin");
    const tickets = await Promise.all(Array.from({ length: 12 }, () => create()));
    expect(tally(tickets)).toEqual(Object.fromEntries(ids.map((id) => [id, 4])));
  });

  it("balanced never passes a capacity: 10 at once, 3 agents of capacity 2, the rest unassigned", async () => {
    const { ws, ids, create } = await assignmentWorkspace("balanced");
    for (const id of ids) await patchUser(ws.token, id, { capacity: 2 });
    const tickets = await Promise.all(Array.from({ length: 10 }, () => create()));
    expect(tally(tickets)).toEqual({ ...Object.fromEntries(ids.map((id) => [id, 2])), none: 4 });
    const stored = await Promise.all(tickets.map((t) => ticketOf(ws.token, t.id)));
    expect(tally(stored)).toEqual(tally(tickets));
  });
});
