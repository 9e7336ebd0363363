import { describe, expect, it } from "vitest";
import { EVENT_NAMES } from "../../src/webhooks/outbox";
import { call, callJson, sendingWorkspace } from "./helpers";
import {
  awaitDeliveries,
  endpoint,
  envelopesAt,
  inboxWithWebhooks,
  openTicket,
  receivedAt,
  streamOf,
} from "./webhook-helpers";

const ALL = [...EVENT_NAMES];

/** Each test waits for what must arrive, then long enough for anything that must not. */
describe("which events reach which webhooks", { timeout: 30_000 }, () => {
  it("sends ticket.created, ticket.updated and ticket.deleted with inbox, ticket and customer", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ALL }]);
    const ticket = await openTicket(ws.token, inbox.id);
    await call("PATCH", `/v1/tickets/${ticket.id}`, {
      token: ws.token,
      body: { priority: "high", metadata: { order: 42 } },
    });
    await call("DELETE", `/v1/tickets/${ticket.id}`, { token: ws.token });

    await awaitDeliveries(hook.path, 3);
    const envelopes = (await envelopesAt(hook.path)).sort((a, b) => a.id.localeCompare(b.id));
    expect(envelopes.map((e) => e.event)).toEqual(["ticket.created", "ticket.updated", "ticket.deleted"]);
    const [created, updated, deleted] = envelopes;
    expect(created).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: "ticket.created",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        inbox: { id: inbox.id, name: "Support", email_address: expect.stringContaining("@acme.test") },
        ticket: {
          id: ticket.id,
          client_id: ticket.client_id,
          subject: "Printer on fire",
          status: "open",
          priority: "normal",
          shared_uuid: expect.stringMatching(/^shr_/),
          public_url: expect.stringMatching(/\/portal\/tickets\/shr_/),
          metadata: {},
          assignee_id: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
        customer: { id: expect.stringMatching(/^cus_/), email: "ada@example.com", name: "Ada", phone: null },
      },
    });
    expect(updated?.data.ticket).toMatchObject({ priority: "high", metadata: { order: 42 } });
    // The last state before deletion.
    expect(deleted?.data.ticket).toMatchObject({ id: ticket.id, priority: "high" });
    expect(deleted?.data.customer).toMatchObject({ email: "ada@example.com" });
  });

  it("sends message.created with message and ticket, for published messages only", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["message.created"] }]);
    const ticket = await openTicket(ws.token, inbox.id);
    const post = (body: Record<string, unknown>) =>
      callJson<{ id: string }>("POST", `/v1/tickets/${ticket.id}/messages`, { token: ws.token, body });
    await call("POST", `/v1/tickets/${ticket.id}/manage`, { token: ws.token, body: { action: "close" } });
    const customer = await post({ type: "customer", body_text: "Still broken" });
    const draft = await post({ type: "note", body_text: "Draft note", draft: true });

    const [first] = await awaitDeliveries(hook.path, 1);
    expect(JSON.parse(first?.body ?? "{}")).toMatchObject({
      event: "message.created",
      data: {
        inbox: { id: inbox.id },
        // The status change the message caused is in the payload, and fires no ticket.updated.
        ticket: { id: ticket.id, status: "open" },
        message: { id: customer.body.id, type: "customer", body_text: "Still broken", is_draft: false },
      },
    });
    expect(await envelopesAt(hook.path)).toHaveLength(1);

    await call("POST", `/v1/messages/${draft.body.id}/send`, { token: ws.token });
    const both = await awaitDeliveries(hook.path, 2);
    expect(JSON.parse(both[1]?.body ?? "{}").data.message).toMatchObject({
      id: draft.body.id,
      is_draft: false,
    });
  });

  it("sends nothing for compose, manage actions or message-caused status changes", async () => {
    const hook = endpoint();
    const ws = await sendingWorkspace("quiet.test");
    const { inbox } = await inboxWithWebhooks(
      [{ url: hook.url, events: ["ticket.created", "ticket.updated"] }],
      { ws, emailAddress: "hello@quiet.test" },
    );
    const composed = await callJson<{ id: string }>("POST", "/v1/tickets/compose", {
      token: ws.token,
      body: { inbox_id: inbox.id, to: "new@example.com", subject: "Welcome", body_text: "Hi!" },
    });
    expect(composed.status).toBe(201);
    for (const action of ["close", "reopen", "hold", "spam"]) {
      await call("POST", `/v1/tickets/${composed.body.id}/manage`, { token: ws.token, body: { action } });
    }
    await call("POST", `/v1/tickets/${composed.body.id}/messages`, {
      token: ws.token,
      body: { type: "customer", body_text: "thanks" },
    });
    expect(await awaitDeliveries(hook.path, 0, 2_500)).toEqual([]);
    // The customer's message is the one event, and this webhook did not subscribe to it.
    expect((await streamOf(ws)).map((e) => [e.event, e.deliveries])).toEqual([["message.created", []]]);
  });

  it("sends inbox.updated to the webhooks as edited, and inbox.deleted to the deleted inbox's webhooks", async () => {
    const kept = endpoint();
    const added = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([
      { url: kept.url, events: ["inbox.updated", "inbox.deleted"] },
    ]);
    const [existing] = inbox.webhooks;
    await call("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: {
        name: "Billing",
        webhooks: [existing, { url: added.url, events: ["inbox.deleted"], enabled: true }],
      },
    });
    await call("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token });

    await awaitDeliveries(kept.path, 2);
    const envelopes = (await envelopesAt(kept.path)).sort((a, b) => a.id.localeCompare(b.id));
    expect(envelopes.map((e) => [e.event, e.data.inbox])).toEqual([
      ["inbox.updated", { id: inbox.id, name: "Billing", email_address: expect.any(String) }],
      ["inbox.deleted", { id: inbox.id, name: "Billing", email_address: expect.any(String) }],
    ]);
    expect((await envelopesAt(added.path)).map((e) => e.event)).toEqual(["inbox.deleted"]);
  });

  it("records one deletion when two deletes race, and no update that loses to a delete", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ALL }]);
    const ticket = await openTicket(ws.token, inbox.id);
    const ticketCalls = await Promise.all([
      call("DELETE", `/v1/tickets/${ticket.id}`, { token: ws.token }),
      call("DELETE", `/v1/tickets/${ticket.id}`, { token: ws.token }),
      call("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: { priority: "low" } }),
    ]);
    const inboxCalls = await Promise.all([
      call("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token }),
      call("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token }),
    ]);
    const statuses = [...ticketCalls, ...inboxCalls].map((r) => r.status);
    const events = (await streamOf(ws)).map((e) => e.event).sort();
    expect(events.filter((e) => e === "ticket.deleted")).toHaveLength(1);
    expect(events.filter((e) => e === "inbox.deleted")).toHaveLength(1);
    // The edit either landed before the delete (one event) or after it (nothing to edit, no event).
    const updates = events.filter((e) => e === "ticket.updated").length;
    expect(updates).toBeLessThanOrEqual(1);
    if (statuses[2] === 200) expect(updates).toBe(1);
    expect(statuses.slice(0, 2).sort()).toEqual([200, 404]);
    expect(statuses.slice(3).sort()).toEqual([200, 404]);
    await awaitDeliveries(hook.path, events.length);
    expect(await receivedAt(hook.path)).toHaveLength(events.length);
  });

  it("honours subscriptions and enabled, and never crosses inboxes", async () => {
    const created = endpoint();
    const updatedOnly = endpoint();
    const disabled = endpoint();
    const elsewhere = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([
      { url: created.url, events: ["ticket.created"] },
      { url: updatedOnly.url, events: ["ticket.updated"] },
      { url: disabled.url, events: ALL, enabled: false },
    ]);
    const other = await inboxWithWebhooks([{ url: elsewhere.url, events: ALL }], { ws });
    const ticket = await openTicket(ws.token, inbox.id);

    await awaitDeliveries(created.path, 1);
    expect(await envelopesAt(updatedOnly.path)).toEqual([]);
    expect(await envelopesAt(disabled.path)).toEqual([]);
    expect(await envelopesAt(elsewhere.path)).toEqual([]);

    await call("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: { subject: "Now smoking" } });
    await awaitDeliveries(updatedOnly.path, 1);
    expect(await envelopesAt(created.path)).toHaveLength(1);
    expect(await envelopesAt(disabled.path)).toEqual([]);
    expect(await envelopesAt(elsewhere.path)).toEqual([]);

    // The stream records a delivery for each webhook that took the event, and none for the others.
    const stream = await streamOf(ws);
    expect(stream.map((e) => [e.event, e.deliveries.map((d) => d.url)])).toEqual([
      ["ticket.updated", [updatedOnly.url]],
      ["ticket.created", [created.url]],
    ]);
    expect(other.inbox.id).not.toBe(inbox.id);
  });
});
