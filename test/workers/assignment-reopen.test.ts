import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chosenAssignee } from "../../src/features/assignment/assignment.repo";
import { assignmentWorkspace, patchUser, tally, ticketOf } from "./assignment-helpers";
import { call, eventsOf } from "./helpers";
import { deliver, FIXTURES, fill, ticketsOf } from "./inbound-helpers";
import { planOf } from "./query-plan";

const customerSays = (token: string, ticketId: string) =>
  call("POST", `/v1/tickets/${ticketId}/messages`, {
    token,
    body: { type: "customer", body_text: "Still broken" },
  });

const resolve = (token: string, ticketId: string) =>
  call("PATCH", `/v1/tickets/${ticketId}`, { token, body: { status: "resolved" } });

describe("a customer reopening a ticket", () => {
  it("reassigns a resolved ticket whose assignee is away, and fires ticket.updated with the new assignee", async () => {
    const { ws, ids, create } = await assignmentWorkspace("round_robin", 2);
    const [a, b] = ids as [string, string];
    const ticket = await create();
    expect(ticket.assignee_id).toBe(a);
    await resolve(ws.token, ticket.id);
    await patchUser(ws.token, a, { available: false });
    const updatesBefore = (await eventsOf(ws.accountId)).filter((e) => e.event === "ticket.updated").length;

    expect((await customerSays(ws.token, ticket.id)).status).toBe(201);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "open", assignee_id: b });
    const updates = (await eventsOf(ws.accountId)).filter((e) => e.event === "ticket.updated");
    expect(updates).toHaveLength(updatesBefore + 1);
    expect(updates.at(-1)?.data.ticket).toMatchObject({ id: ticket.id, status: "open", assignee_id: b });
    const messageEvent = (await eventsOf(ws.accountId)).filter((e) => e.event === "message.created").at(-1);
    expect(messageEvent?.data.ticket).toMatchObject({ assignee_id: b });
  });

  it("keeps an assignee who is still available, and fires no ticket.updated", async () => {
    const { ws, ids, create } = await assignmentWorkspace("round_robin", 2);
    const ticket = await create();
    await resolve(ws.token, ticket.id);
    const before = (await eventsOf(ws.accountId)).length;
    await customerSays(ws.token, ticket.id);
    expect((await ticketOf(ws.token, ticket.id)).assignee_id).toBe(ids[0]);
    const added = (await eventsOf(ws.accountId)).slice(before).map((e) => e.event);
    expect(added).toEqual(["message.created"]);
  });

  it("assigns an unassigned closed ticket, and unassigns one nobody can take", async () => {
    const { ws, ids, create } = await assignmentWorkspace("round_robin", 1);
    const [only] = ids as [string];
    await patchUser(ws.token, only, { available: false });
    const orphan = await create();
    expect(orphan.assignee_id).toBeNull();
    await call("PATCH", `/v1/tickets/${orphan.id}`, { token: ws.token, body: { status: "closed" } });
    await patchUser(ws.token, only, { available: true });
    await customerSays(ws.token, orphan.id);
    expect((await ticketOf(ws.token, orphan.id)).assignee_id).toBe(only);

    await resolve(ws.token, orphan.id);
    await patchUser(ws.token, only, { status: "disabled" });
    await customerSays(ws.token, orphan.id);
    expect(await ticketOf(ws.token, orphan.id)).toMatchObject({ status: "open", assignee_id: null });
  });

  it("leaves a pending ticket's assignee alone (only resolved or closed tickets are reassigned)", async () => {
    const { ws, ids, create } = await assignmentWorkspace("round_robin", 2);
    const ticket = await create();
    await call("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: { status: "pending" } });
    await patchUser(ws.token, ids[0] as string, { available: false });
    await customerSays(ws.token, ticket.id);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "open", assignee_id: ids[0] });
  });

  it("does nothing on a manual inbox", async () => {
    const { ws, ids, create } = await assignmentWorkspace("manual", 2);
    const ticket = await create({ assignee_id: ids[0] });
    await resolve(ws.token, ticket.id);
    await patchUser(ws.token, ids[0] as string, { available: false });
    await customerSays(ws.token, ticket.id);
    expect((await ticketOf(ws.token, ticket.id)).assignee_id).toBe(ids[0]);
  });
});

describe("a ticket opened by inbound mail", () => {
  it("is assigned by the inbox's rule, in turn, and ticket.created carries the assignee", async () => {
    const { ws, inbox, ids } = await assignmentWorkspace("round_robin", 2);
    for (const id of ["rr-1", "rr-2", "rr-3"]) {
      const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress, ID: id });
      expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    }
    const tickets = await ticketsOf(ws.token);
    const assigned = await Promise.all(tickets.map((t) => ticketOf(ws.token, t.id)));
    expect(tally(assigned)).toEqual({ [ids[0] as string]: 2, [ids[1] as string]: 1 });
    const created = (await eventsOf(ws.accountId)).filter((e) => e.event === "ticket.created");
    expect(created.map((e) => e.data.ticket?.assignee_id)).toEqual([ids[0], ids[1], ids[0]]);
  });
});

describe("the choice of an assignee is served by indexes", () => {
  it("reads users, their open tickets and the inbox through indexes; sorts only the workspace's agents", async () => {
    const plan = await planOf(sql`SELECT ${chosenAssignee("acc_X", "inb_X")} AS id`);
    const text = plan.join("\n");
    expect(text).toMatch(/SEARCH u USING INDEX users_account_\w+ \(account_id=\?\)/);
    expect(text).toMatch(
      /SEARCH ot USING COVERING INDEX tickets_account_assignee_status_created \(account_id=\? AND assignee_id=\? AND status=\?\)/,
    );
    expect(text).toMatch(/SEARCH inboxes USING INDEX sqlite_autoindex_inboxes_1 \(id=\?\)/);
    expect(text).not.toMatch(/^SCAN (?!CONSTANT ROW)/m);
    // The one sort: the workspace's eligible agents, at most its team size.
    expect(plan.filter((line) => line.includes("TEMP B-TREE"))).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
  });
});
