import { describe, expect, it } from "vitest";
import { call, callJson, eventsOf, seedUser, shardD1Of, ticketWorkspace } from "./helpers";

/* A saved reply's actions commit in the message's own batch (issue 44): all of it or none of it. */

type Ticket = {
  id: string;
  status: string;
  tags: string[];
  assignee_id: string | null;
  message_count: number;
};
type Message = { id: string; ticket_id: string };

async function desk() {
  const { ws, inbox, ticket } = await ticketWorkspace("srp-batch");
  const agent = await seedUser(ws.accountId);
  const save = async (actions: Record<string, unknown>) =>
    (
      await callJson<{ id: string }>("POST", "/v1/saved-replies", {
        token: ws.token,
        body: { name: "R", body: "We are on it.", actions },
      })
    ).body.id;
  const post = (body: Record<string, unknown>, key?: string) =>
    call("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body,
      ...(key ? { headers: { "Idempotency-Key": key } } : {}),
    });
  const ticketNow = async () =>
    (await callJson<Ticket>("GET", `/v1/tickets/${ticket.id}`, { token: ws.token })).body;
  const events = async (name: string) => (await eventsOf(ws.accountId)).filter((e) => e.event === name);
  const emails = async () =>
    (await callJson<{ data: unknown[] }>("GET", "/v1/emails", { token: ws.token })).body.data;
  /** The facet counters the triggers keep, by `facet:value`. */
  const facets = async () => {
    const rows = await shardD1Of()
      .prepare("SELECT facet, value, total FROM ticket_facet_counts WHERE account_id = ?")
      .bind(ws.accountId)
      .all<{ facet: string; value: string; total: number }>();
    return Object.fromEntries(rows.results.map((r) => [`${r.facet}:${r.value}`, r.total]));
  };
  const tagId = async (name: string) =>
    (
      await shardD1Of()
        .prepare("SELECT id FROM tags WHERE account_id = ? AND name = ?")
        .bind(ws.accountId, name)
        .first<{ id: string }>()
    )?.id;
  return { ws, inbox, ticket, agent, save, post, ticketNow, events, emails, facets, tagId };
}

/** A real trigger that fails linking a tag to this ticket, as a D1 error in the batch would. */
async function failTagLinks(ticketId: string) {
  const name = `fail_tags_${crypto.randomUUID().replaceAll("-", "")}`;
  await shardD1Of().exec(
    `CREATE TRIGGER ${name} BEFORE INSERT ON ticket_tags WHEN NEW.ticket_id = '${ticketId}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`,
  );
  return async () => {
    await shardD1Of().exec(`DROP TRIGGER ${name};`);
  };
}

describe("saved replies: the actions in the message's batch", () => {
  it("stores nothing when the actions fail, and a retry with the key then applies everything once", async () => {
    const d = await desk();
    const id = await d.save({ add_tags: ["refund"], assignee_id: d.agent.id, status: "pending" });
    const restore = await failTagLinks(d.ticket.id);
    const failed = await d.post({ saved_reply_id: id }, "send-1").finally(restore);
    // Neither the message, its email and event, nor the assignee: the batch rolled back whole.
    expect(await d.ticketNow()).toMatchObject({ message_count: 0, assignee_id: null, tags: [] });
    expect(await d.events("message.created")).toEqual([]);
    expect(await d.events("ticket.updated")).toEqual([]);
    expect(await d.emails()).toEqual([]);
    // Nothing was stored for the key either: the failure is answered, not a message without actions.
    expect(failed.status).toBe(500);

    const sent = await d.post({ saved_reply_id: id }, "send-1");
    expect(sent.status).toBe(201);
    const again = await d.post({ saved_reply_id: id }, "send-1");
    expect(again.status).toBe(201);
    expect(((await again.json()) as Message).id).toBe(((await sent.json()) as Message).id);

    const ticket = await d.ticketNow();
    expect(ticket).toMatchObject({ message_count: 1, assignee_id: d.agent.id, status: "pending" });
    expect(ticket.tags).toEqual(["refund"]);
    expect(await d.events("message.created")).toHaveLength(1);
    expect(await d.events("ticket.updated")).toHaveLength(1);
    expect(await d.emails()).toHaveLength(1);
    const facets = await d.facets();
    expect(facets[`tag:${await d.tagId("refund")}`]).toBe(1);
    expect(facets[`assignee:${d.agent.id}`]).toBe(1);
  });

  it("counts two sends at once on one ticket once each, linking and counting the tag once", async () => {
    const d = await desk();
    const id = await d.save({ add_tags: ["vip", "billing"], assignee_id: d.agent.id, status: "on_hold" });
    const answers = await Promise.all([0, 1].map(() => d.post({ type: "note", saved_reply_id: id })));
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    const ticket = await d.ticketNow();
    expect(ticket).toMatchObject({ message_count: 2, assignee_id: d.agent.id, status: "on_hold" });
    expect([...ticket.tags].sort()).toEqual(["billing", "vip"]);
    const facets = await d.facets();
    expect(facets[`tag:${await d.tagId("vip")}`]).toBe(1);
    expect(facets[`tag:${await d.tagId("billing")}`]).toBe(1);
    expect(facets[`assignee:${d.agent.id}`]).toBe(1);
    expect(facets["status:on_hold"]).toBe(1);
    expect(facets["status:open"] ?? 0).toBe(0);
    expect(await d.events("message.created")).toHaveLength(2);
    expect(await d.events("ticket.updated")).toHaveLength(2);
  });

  it("fires ticket.updated once, after message.created, with the ticket as the message and actions leave it", async () => {
    const d = await desk();
    const id = await d.save({ status: "pending", assignee_id: d.agent.id, add_tags: ["x"] });
    const before = (await eventsOf(d.ws.accountId)).length;
    expect((await d.post({ type: "note", saved_reply_id: id })).status).toBe(201);
    const events = (await eventsOf(d.ws.accountId)).slice(before);
    expect(events.map((e) => e.event)).toEqual(["message.created", "ticket.updated"]);
    const shown = (
      await callJson<{ updated_at: string }>("GET", `/v1/tickets/${d.ticket.id}`, { token: d.ws.token })
    ).body;
    const updated = events[1]?.data;
    expect(updated?.ticket).toMatchObject({
      id: d.ticket.id,
      status: "pending",
      updated_at: shown.updated_at,
    });
    expect(updated?.customer).toMatchObject({ email: "ada@example.com" });
    // Tags alone change no field of the event (as POST /manage add_tags): no ticket.updated.
    const tagsOnly = await d.save({ add_tags: ["y"] });
    expect((await d.post({ type: "note", saved_reply_id: tagsOnly })).status).toBe(201);
    expect(await d.events("ticket.updated")).toHaveLength(1);
    expect((await d.ticketNow()).tags.sort()).toEqual(["x", "y"]);
  });

  it("checks the assignee before anything is stored (400 naming it)", async () => {
    const d = await desk();
    const id = await d.save({ assignee_id: d.agent.id, add_tags: ["z"] });
    await shardD1Of().prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(d.agent.id).run();
    const refused = await d.post({ saved_reply_id: id });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain(
      "saved_reply.actions.assignee_id",
    );
    expect(await d.ticketNow()).toMatchObject({ message_count: 0, tags: [], assignee_id: null });
    expect(await d.events("message.created")).toEqual([]);
  });
});
