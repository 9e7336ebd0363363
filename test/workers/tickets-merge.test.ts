import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, eventsOf, seedInbox, seedWorkspace } from "./helpers";

type Ticket = Record<string, unknown> & { id: string; status: string; tags: string[]; message_count: number };

describe("merge and cross-workspace access", () => {
  it("merges a ticket into another: messages and tags move, the source closes, no event fires", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const open = (subject: string, tags: string[]) =>
      callJson<Ticket>("POST", "/v1/tickets", {
        token: ws.token,
        body: {
          inbox_id: inbox.id,
          customer: { email: "ada@example.com" },
          subject,
          tags,
          message: { body_text: subject },
        },
      });
    const source = (await open("Duplicate", ["billing"])).body;
    const target = (await open("Original", ["vip"])).body;
    const merged = await callJson<Ticket>("POST", `/v1/tickets/${source.id}/manage`, {
      token: ws.token,
      body: { action: "merge", into_ticket_id: target.id },
    });
    expect(merged.body).toMatchObject({ status: "closed", message_count: 0 });
    const after = (await callJson<Ticket>("GET", `/v1/tickets/${target.id}`, { token: ws.token })).body;
    expect(after).toMatchObject({ message_count: 2, tags: ["billing", "vip"] });
    const messages = await callJson<{ data: unknown[] }>("GET", `/v1/tickets/${target.id}/messages`, {
      token: ws.token,
    });
    expect(messages.body.data).toHaveLength(2);
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["ticket.created", "ticket.created"]);
    expect(
      (
        await call("POST", `/v1/tickets/${target.id}/manage`, {
          token: ws.token,
          body: { action: "merge", into_ticket_id: target.id },
        })
      ).status,
    ).toBe(400);
  });

  it("refuses to merge tickets of two inboxes with 400, and moves nothing", async () => {
    const ws = await seedWorkspace();
    const [sales, support] = [await seedInbox(ws.accountId), await seedInbox(ws.accountId)];
    const open = async (inboxId: string, subject: string) =>
      (
        await callJson<Ticket>("POST", "/v1/tickets", {
          token: ws.token,
          body: {
            inbox_id: inboxId,
            customer: { email: "ada@example.com" },
            subject,
            tags: [subject],
            message: { body_text: subject },
          },
        })
      ).body;
    const source = await open(sales.id, "quote");
    const target = await open(support.id, "bug");
    const res = await callJson("POST", `/v1/tickets/${source.id}/manage`, {
      token: ws.token,
      body: { action: "merge", into_ticket_id: target.id },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      ...errorBody("Ticket of another inbox", "merge_other_inbox"),
      message: `${source.id} is in inbox ${sales.id} and ${target.id} in inbox ${support.id}; tickets merge only within one inbox.`,
    });
    for (const [ticket, tags] of [
      [source, ["quote"]],
      [target, ["bug"]],
    ] as const) {
      const after = (await callJson<Ticket>("GET", `/v1/tickets/${ticket.id}`, { token: ws.token })).body;
      expect(after).toMatchObject({ status: "open", message_count: 1, tags });
    }
  });

  it("answers 404 for another workspace's messages, tags and tickets on every write", async () => {
    const owner = await seedWorkspace();
    const stranger = await seedWorkspace();
    const inbox = await seedInbox(owner.accountId);
    const ticket = (
      await callJson<Ticket>("POST", "/v1/tickets", {
        token: owner.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Mine", tags: ["vip"] },
      })
    ).body;
    const draft = (
      await callJson<{ id: string }>("POST", `/v1/tickets/${ticket.id}/messages`, {
        token: owner.token,
        body: { type: "note", body_text: "x", draft: true },
      })
    ).body;
    const tag = (
      await callJson<{ data: Array<{ id: string }> }>("GET", `/v1/tickets/${ticket.id}/tags`, {
        token: owner.token,
      })
    ).body.data[0]?.id;
    for (const [method, path, body] of [
      ["PATCH", `/v1/messages/${draft.id}`, { body_text: "hijack" }],
      ["DELETE", `/v1/messages/${draft.id}`, undefined],
      ["POST", `/v1/messages/${draft.id}/send`, undefined],
      ["POST", `/v1/tickets/${ticket.id}/messages`, { type: "note", body_text: "x" }],
      ["POST", `/v1/tickets/${ticket.id}/tags`, { name: "x" }],
      ["DELETE", `/v1/tickets/${ticket.id}/tags/${tag}`, undefined],
      ["POST", "/v1/tickets", { inbox_id: inbox.id, customer: { email: "b@example.com" }, subject: "x" }],
      [
        "POST",
        "/v1/tickets/compose",
        { inbox_id: inbox.id, to: "b@example.com", subject: "x", body_text: "x" },
      ],
    ] as const) {
      expect((await call(method, path, { token: stranger.token, body })).status, `${method} ${path}`).toBe(
        404,
      );
    }
    expect(
      (await callJson<{ body_text: string }>("GET", `/v1/messages/${draft.id}`, { token: owner.token })).body
        .body_text,
    ).toBe("x");
  });
});
