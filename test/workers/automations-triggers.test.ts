import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { activeAutomation, createAutomation, enrollmentsOf } from "./automations-api-helpers";
import { callJson, eventually, seedInbox, seedWorkspace, ticketWorkspace } from "./helpers";

const customerIdOf = async (accountId: string, email: string) =>
  (
    await env.DB_2.prepare("SELECT id FROM customers WHERE account_id = ? AND email = ?")
      .bind(accountId, email)
      .first<{ id: string }>()
  )?.id;

/** Waits until the automation has `count` enrolments, and answers them. */
async function enrolled(token: string, automationId: string, count: number) {
  return eventually(async () => {
    const page = await enrollmentsOf(token, automationId, "?limit=100");
    return page.body.count === count ? page.body.data : null;
  });
}

describe("automation triggers", () => {
  it("group_joined enrols only the customers newly added to the group", async () => {
    const ws = await seedWorkspace();
    const group = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: ws.token,
      body: { name: "Trial" },
    });
    const otherGroup = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: ws.token,
      body: { name: "Other" },
    });
    const add = (members: unknown[], groupId = group.body.id) =>
      callJson<{ added: number; skipped: number }>("POST", `/v1/contact-groups/${groupId}/members`, {
        token: ws.token,
        body: { members },
      });
    expect((await add([{ email: "old@example.com" }])).body).toEqual({ added: 1, skipped: 0 });

    const automation = await activeAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: group.body.id },
    });
    const elsewhere = await activeAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: otherGroup.body.id },
    });
    const draft = await createAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: group.body.id },
    });

    const added = await add([
      { email: "old@example.com" },
      { email: "new1@example.com" },
      { email: "new2@example.com" },
    ]);
    expect(added.body).toEqual({ added: 2, skipped: 1 });
    const first = await enrolled(ws.token, automation.id, 2);
    const expected = [
      await customerIdOf(ws.accountId, "new1@example.com"),
      await customerIdOf(ws.accountId, "new2@example.com"),
    ];
    expect(first.map((e) => e.customer_id).sort()).toEqual(expected.sort());
    expect(first[0]).toMatchObject({
      status: "active",
      trigger_type: "group_joined",
      trigger_data: { contact_group_id: group.body.id },
      current_step: automation.steps[0]?.id,
    });

    // new1 is already a member: only new3 joins, so only new3 is enrolled.
    expect((await add([{ email: "new1@example.com" }, { email: "new3@example.com" }])).body).toEqual({
      added: 1,
      skipped: 1,
    });
    const second = await enrolled(ws.token, automation.id, 3);
    expect(second.filter((e) => e.customer_id === expected[0])).toHaveLength(1);
    expect((await enrollmentsOf(ws.token, elsewhere.id)).body.count).toBe(0);
    expect((await enrollmentsOf(ws.token, draft.id)).body.count).toBe(0);
  });

  it("ticket_resolved enrols the ticket's customer when a ticket of the inbox moves to resolved, by every path", async () => {
    const { ws, inbox, ticket } = await ticketWorkspace("autres");
    const automation = await activeAutomation(ws.token, {
      trigger: { type: "ticket_resolved", inbox_id: inbox.id },
      allow_reentry: true,
    });
    const otherInbox = await seedInbox(ws.accountId);
    const elsewhere = await activeAutomation(ws.token, {
      trigger: { type: "ticket_resolved", inbox_id: otherInbox.id },
    });
    const patch = (body: unknown) => callJson("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body });
    const manage = (action: string) =>
      callJson("POST", `/v1/tickets/${ticket.id}/manage`, { token: ws.token, body: { action } });

    expect((await patch({ status: "resolved" })).status).toBe(200);
    const [first] = await enrolled(ws.token, automation.id, 1);
    expect(first).toMatchObject({
      customer_id: await customerIdOf(ws.accountId, "ada@example.com"),
      trigger_type: "ticket_resolved",
      trigger_data: { ticket_id: ticket.id, inbox_id: inbox.id },
    });

    // Already resolved: no move, no enrolment (re-entry is allowed, so only the move check stops it).
    expect((await patch({ status: "resolved", priority: "high" })).status).toBe(200);
    expect((await manage("resolve")).status).toBe(200);
    expect((await manage("reopen")).status).toBe(200);
    expect((await manage("resolve")).status).toBe(200);
    await enrolled(ws.token, automation.id, 2);

    expect((await manage("reopen")).status).toBe(200);
    const reply = await callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { body_text: "Fixed, closing this.", status_after_send: "resolved" },
    });
    expect(reply.status).toBe(201);
    await enrolled(ws.token, automation.id, 3);
    // Work after the responses has had time to land: still three, one per real move.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await enrollmentsOf(ws.token, automation.id)).body.count).toBe(3);
    expect((await enrollmentsOf(ws.token, elsewhere.id)).body.count).toBe(0);
  });
});
