import { describe, expect, it } from "vitest";
import { eventQueries } from "../../src/features/event-stream/event-stream.repo";
import { call, callJson, db, seedInbox, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type Events = {
  data: Array<{ event: string; inbox_id: string; data: Record<string, unknown> }>;
  pagination: Record<string, number>;
};

describe("GET /v1/accounts/{id}/events", () => {
  it("lists the workspace's events newest first, filtered by event and inbox, and no one else's", async () => {
    const ws = await seedWorkspace();
    const a = await seedInbox(ws.accountId);
    const b = await seedInbox(ws.accountId);
    const open = (inboxId: string) =>
      callJson<{ id: string }>("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inboxId, customer: { email: "ada@example.com" }, subject: "x" },
      });
    const first = (await open(a.id)).body;
    await open(b.id);
    await call("PATCH", `/v1/tickets/${first.id}`, { token: ws.token, body: { priority: "urgent" } });

    const all = await callJson<Events>("GET", `/v1/accounts/${ws.accountId}/events`, { token: ws.token });
    expect(all.body.data.map((e) => e.event)).toEqual(["ticket.updated", "ticket.created", "ticket.created"]);
    expect(all.body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    expect(all.body.data[0]?.data).toMatchObject({
      ticket: { id: first.id, priority: "urgent" },
      inbox: { id: a.id },
    });
    const created = await callJson<Events>(
      "GET",
      `/v1/accounts/${ws.accountId}/events?event=ticket.created&inbox_id=${b.id}`,
      { token: ws.token },
    );
    expect(created.body.data.map((e) => e.inbox_id)).toEqual([b.id]);

    const stranger = await seedWorkspace();
    expect((await call("GET", `/v1/accounts/${ws.accountId}/events`, { token: stranger.token })).status).toBe(
      404,
    );
    expect(
      (await call("GET", `/v1/accounts/${ws.accountId}/events?event=ticket.exploded`, { token: ws.token }))
        .status,
    ).toBe(400);
  });

  it.each([
    ["no filter", {}],
    ["event", { event: "ticket.created" }],
    ["inbox_id", { inboxId: "inb_X" }],
  ])("is served by an index with %s", async (_name, filter) => {
    const { page, total } = eventQueries(db(), { accountId: "acc_X", ...filter }, 50, 0);
    expectIndexed(await planOf(page), "events");
    expectIndexed(await planOf(total), "events");
  });
});
