import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addKey, call, callJson, errorBody, eventsOf, seedInbox, seedUser, seedWorkspace } from "./helpers";

type Ticket = Record<string, unknown> & {
  id: string;
  status: string;
  client_id: string;
  tags: string[];
  updated_at: string;
};

async function setup() {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  const create = (body: Record<string, unknown> = {}) =>
    callJson<Ticket>("POST", "/v1/tickets", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        customer: { email: "Ada@Example.com", name: "Ada" },
        subject: "Broken invoice",
        ...body,
      },
    });
  return { ws, inbox, create };
}

describe("tickets", () => {
  it("creates a ticket with client_id, customer, tags, first message and the ticket.created event", async () => {
    const { ws, inbox, create } = await setup();
    await call("PATCH", `/v1/accounts/${ws.accountId}`, { token: ws.token, body: { ticket_prefix: "SUP" } });
    const { status, body } = await create({
      message: { body_text: "It is wrong" },
      tags: ["Billing", "billing", "vip"],
      metadata: { plan: "pro" },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      client_id: "SUP-00001",
      subject: "Broken invoice",
      status: "open",
      priority: "normal",
      inbox_id: inbox.id,
      customer: { email: "ada@example.com", name: "Ada" },
      tags: ["Billing", "vip"],
      message_count: 1,
      metadata: { plan: "pro" },
    });
    expect(body.id).toMatch(/^tkv_/);
    expect(body.shared_uuid).toMatch(/^shr_/);
    expect(body.public_url).toBe(
      `${env.PUBLIC_BASE_URL}/portal/tickets/${body.shared_uuid}?w=${ws.accountId}`,
    );
    expect((await create()).body.client_id).toBe("SUP-00002");

    const events = await eventsOf(ws.accountId);
    expect(events.map((e) => e.event)).toEqual(["ticket.created", "ticket.created"]);
    expect(events[0]?.data.ticket).toMatchObject({
      id: body.id,
      client_id: "SUP-00001",
      status: "open",
      priority: "normal",
    });
    expect(events[0]?.data.customer).toMatchObject({ email: "ada@example.com", name: "Ada", phone: null });
    expect(events[0]?.data.inbox).toEqual({
      id: inbox.id,
      name: "Support",
      email_address: inbox.emailAddress,
    });
  });

  it("refuses a blocked customer with 403", async () => {
    const { ws, create } = await setup();
    await create();
    await env.DB_2.prepare("UPDATE customers SET blocked = 1 WHERE account_id = ?").bind(ws.accountId).run();
    const { status, body } = await create();
    expect(status).toBe(403);
    expect(body).toEqual({
      ...errorBody("Customer blocked", "customer_blocked"),
      message: expect.any(String),
    });
  });

  it("edits with PATCH (ticket.updated) and acts with manage (no event)", async () => {
    const { ws, create } = await setup();
    const { body } = await create();
    const patched = await callJson<Ticket>("PATCH", `/v1/tickets/${body.id}`, {
      token: ws.token,
      body: { priority: "high", status: "pending" },
    });
    expect(patched.body).toMatchObject({ priority: "high", status: "pending" });
    const closed = await callJson<Ticket>("POST", `/v1/tickets/${body.id}/manage`, {
      token: ws.token,
      body: { action: "close" },
    });
    expect(closed.body).toMatchObject({ status: "closed", closed_at: expect.any(String) });
    const tagged = await callJson<Ticket>("POST", `/v1/tickets/${body.id}/manage`, {
      token: ws.token,
      body: { action: "add_tags", tags: ["urgent"] },
    });
    expect(tagged.body.tags).toEqual(["urgent"]);
    const agent = await seedUser(ws.accountId);
    const assigned = await callJson<Ticket>("POST", `/v1/tickets/${body.id}/manage`, {
      token: ws.token,
      body: { action: "assign", user_id: agent.id },
    });
    expect(assigned.body.assignee_id).toBe(agent.id);
    const reopened = await callJson<Ticket>("POST", `/v1/tickets/${body.id}/manage`, {
      token: ws.token,
      body: { action: "reopen" },
    });
    expect(reopened.body).toMatchObject({ status: "open", closed_at: null });
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["ticket.created", "ticket.updated"]);
  });

  it("deletes a ticket with ticket.deleted carrying its last state", async () => {
    const { ws, create } = await setup();
    const { body } = await create();
    expect((await callJson("DELETE", `/v1/tickets/${body.id}`, { token: ws.token })).body).toEqual({
      id: body.id,
      deleted: true,
    });
    expect((await call("GET", `/v1/tickets/${body.id}`, { token: ws.token })).status).toBe(404);
    const deleted = (await eventsOf(ws.accountId)).at(-1);
    expect(deleted).toMatchObject({
      event: "ticket.deleted",
      data: { ticket: { id: body.id, subject: "Broken invoice" } },
    });
  });

  it("lists with the standard envelope, filters, and the updated_after sync order", async () => {
    const { ws, create } = await setup();
    const a = (await create({ subject: "Alpha refund", priority: "high" })).body;
    const b = (await create({ subject: "Beta question", tags: ["vip"] })).body;
    const c = (await create({ subject: "Gamma refund", status: "pending" })).body;
    const ids = async (query: string) =>
      (await callJson<{ data: Ticket[] }>("GET", `/v1/tickets${query}`, { token: ws.token })).body.data.map(
        (t) => t.id,
      );
    expect(await ids("")).toEqual([c.id, b.id, a.id]);
    expect(await ids("?status=pending")).toEqual([c.id]);
    expect(await ids("?priority=high")).toEqual([a.id]);
    expect(await ids("?tag=VIP")).toEqual([b.id]);
    expect(await ids("?q=refund")).toEqual([c.id, a.id]);
    await call("PATCH", `/v1/tickets/${a.id}`, {
      token: ws.token,
      body: { subject: "Alpha refund (edited)" },
    });
    expect(await ids(`?updated_after=${encodeURIComponent(c.updated_at)}`)).toEqual([a.id]);
    const page = await callJson<{ pagination: Record<string, number> }>("GET", "/v1/tickets?limit=2", {
      token: ws.token,
    });
    expect(page.body.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
    expect(
      (await callJson<{ pagination: Record<string, number> }>("GET", "/v1/tickets", { token: ws.token })).body
        .pagination.limit,
    ).toBe(50);
  });

  it("manages a ticket's tags and keeps other workspaces out", async () => {
    const { ws, create } = await setup();
    const other = await seedWorkspace();
    const { body } = await create();
    const added = await callJson<{ data: Array<{ id: string; name: string }>; count: number }>(
      "POST",
      `/v1/tickets/${body.id}/tags`,
      { token: ws.token, body: { name: "Refund" } },
    );
    expect(added.body).toMatchObject({ count: 1, data: [{ name: "Refund" }] });
    const tagId = added.body.data[0]?.id as string;
    expect(
      (await callJson("DELETE", `/v1/tickets/${body.id}/tags/${tagId}`, { token: ws.token })).body,
    ).toEqual({ data: [], count: 0 });
    for (const [method, path, payload] of [
      ["GET", `/v1/tickets/${body.id}`, undefined],
      ["PATCH", `/v1/tickets/${body.id}`, { subject: "x" }],
      ["DELETE", `/v1/tickets/${body.id}`, undefined],
      ["POST", `/v1/tickets/${body.id}/manage`, { action: "close" }],
      ["GET", `/v1/tickets/${body.id}/tags`, undefined],
    ] as const) {
      expect(
        (await call(method, path, { token: other.token, body: payload })).status,
        `${method} ${path}`,
      ).toBe(404);
    }
    const read = await addKey(ws.accountId, "read");
    expect(
      (await call("POST", `/v1/tickets/${body.id}/manage`, { token: read.token, body: { action: "close" } }))
        .status,
    ).toBe(403);
  });
});

describe("ticket counts", () => {
  it("keeps the unfiltered total right through creates, deletes, merges and inbox deletion", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const other = await seedInbox(ws.accountId);
    const create = async (inboxId: string) =>
      (
        await callJson<Ticket>("POST", "/v1/tickets", {
          token: ws.token,
          body: { inbox_id: inboxId, customer: { email: "ada@example.com" }, subject: "x" },
        })
      ).body;
    const total = async () =>
      (await callJson<{ pagination: { total: number } }>("GET", "/v1/tickets?limit=1", { token: ws.token }))
        .body.pagination.total;
    const a = await create(inbox.id);
    await create(inbox.id);
    await create(other.id);
    expect(await total()).toBe(3);
    await call("DELETE", `/v1/tickets/${a.id}`, { token: ws.token });
    expect(await total()).toBe(2);
    await env.DB_2.prepare("DELETE FROM inboxes WHERE id = ?").bind(inbox.id).run();
    expect(await total()).toBe(1);
    const filtered = await callJson<{ pagination: { total: number } }>(
      "GET",
      `/v1/tickets?inbox_id=${other.id}`,
      { token: ws.token },
    );
    expect(filtered.body.pagination.total).toBe(1);
  });
});
