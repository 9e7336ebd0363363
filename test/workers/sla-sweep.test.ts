import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { sweepSla } from "../../src/features/sla/sla-sweep";
import { slaStatements } from "../../src/features/sla/ticket-sla";
import { manageTicket } from "../../src/features/tickets/manage.service";
import { findTicket } from "../../src/features/tickets/tickets.repo";
import { call, callJson, db, eventsOf, shardD1Of, shardEnv } from "./helpers";
import { iso, MIN, slaDesk, T0 } from "./sla-helpers";

const sweep = (now: number) => sweepSla(db(), shardEnv(), now);

const slaEvents = async (accountId: string) =>
  (await eventsOf(accountId)).filter((e) => e.event.startsWith("ticket.sla_"));

/** Delivery rows written for an account's events of `name`: one per webhook that takes it. */
async function deliveriesOf(accountId: string, name: string) {
  const row = await shardD1Of()
    .prepare(
      "SELECT count(*) AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.account_id = ? AND e.event = ?",
    )
    .bind(accountId, name)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("the SLA sweep", () => {
  it("fires a warning and a breach exactly once each under concurrent sweeps", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    // Normal: first response in 60 minutes, warned 30 before.
    await Promise.all([sweep(T0 + 29 * MIN), sweep(T0 + 29 * MIN)]);
    expect(await slaEvents(desk.ws.accountId)).toEqual([]);
    await Promise.all([sweep(T0 + 30 * MIN), sweep(T0 + 30 * MIN), sweep(T0 + 31 * MIN)]);
    const warned = await slaEvents(desk.ws.accountId);
    expect(warned.map((e) => e.event)).toEqual(["ticket.sla_warning"]);
    expect(warned[0]?.data.sla).toEqual({
      policy_id: desk.policyId,
      target: "first_response",
      due_at: iso(T0 + 60 * MIN),
    });
    expect(warned[0]?.data.ticket?.id).toBe(ticket.id);

    await Promise.all([sweep(T0 + 60 * MIN), sweep(T0 + 60 * MIN), sweep(T0 + 61 * MIN)]);
    await sweep(T0 + 62 * MIN);
    expect((await slaEvents(desk.ws.accountId)).map((e) => e.event)).toEqual([
      "ticket.sla_warning",
      "ticket.sla_breached",
    ]);
    const breached = await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/tickets?sla_breached=true", {
      token: desk.ws.token,
    });
    expect(breached.body.data.map((t) => t.id)).toEqual([ticket.id]);
    // A new due time (a higher priority) is a new moment: its breach fires once more.
    await desk.patch(T0 + 63 * MIN, ticket.id, { priority: "urgent" });
    await Promise.all([sweep(T0 + 64 * MIN), sweep(T0 + 64 * MIN)]);
    const events = (await slaEvents(desk.ws.accountId)).map((e) => `${e.event}:${e.data.sla?.due_at}`);
    expect(events).toEqual([
      `ticket.sla_warning:${iso(T0 + 60 * MIN)}`,
      `ticket.sla_breached:${iso(T0 + 60 * MIN)}`,
      `ticket.sla_breached:${iso(T0 + 15 * MIN)}`,
    ]);
  });

  it("fires nothing for a target met in time, or paused", async () => {
    const desk = await slaDesk();
    const answered = await desk.open(T0);
    await desk.say(T0 + 5 * MIN, answered.id, "reply", { status_after_send: "open" });
    const waiting = await desk.open(T0);
    await desk.patch(T0 + 1 * MIN, waiting.id, { status: "on_hold" });
    await desk.patch(T0 + 2 * MIN, answered.id, { status: "resolved" });
    await sweep(T0 + 600 * MIN);
    expect(await slaEvents(desk.ws.accountId)).toEqual([]);
  });

  it("loses nothing when the sweep dies between the moment and the event: the mark and the event are one batch", async () => {
    const desk = await slaDesk({ warning_before: 0 });
    const ticket = await desk.open(T0);
    // The database refuses the event, as a Worker that dies mid-batch leaves nothing of it.
    await shardD1Of()
      .prepare(
        "CREATE TRIGGER sla_crash BEFORE INSERT ON events WHEN NEW.event = 'ticket.sla_breached' BEGIN SELECT RAISE(ABORT, 'crash'); END",
      )
      .run();
    try {
      await expect(sweep(T0 + 61 * MIN)).rejects.toThrow();
    } finally {
      await shardD1Of().prepare("DROP TRIGGER sla_crash").run();
    }
    const stored = await shardD1Of()
      .prepare(
        "SELECT json_extract(sla, '$.first_response.breached_for') AS mark, sla_next_at FROM tickets WHERE id = ?",
      )
      .bind(ticket.id)
      .first<{ mark: number | null; sla_next_at: number }>();
    expect(stored?.mark).toBeNull();
    expect(stored?.sla_next_at).toBeLessThanOrEqual(T0 + 61 * MIN);
    expect(await slaEvents(desk.ws.accountId)).toEqual([]);
    await Promise.all([sweep(T0 + 62 * MIN), sweep(T0 + 62 * MIN)]);
    // A warning 0 minutes before is the breach's moment: the breach alone fires.
    expect((await slaEvents(desk.ws.accountId)).map((e) => e.event)).toEqual(["ticket.sla_breached"]);
  });

  it("delivers the SLA events only to webhooks that list them by name", async () => {
    const desk = await slaDesk();
    const setHooks = await call("PATCH", `/v1/inboxes/${desk.inbox.id}`, {
      token: desk.ws.token,
      body: {
        webhooks: [
          {
            url: "http://127.0.0.1:9/all-ticket-events",
            events: ["ticket.created", "ticket.updated", "ticket.deleted", "message.created"],
          },
          { url: "http://127.0.0.1:9/sla", events: ["ticket.sla_breached"] },
        ],
      },
    });
    expect(setHooks.status).toBe(200);
    // A webhook names the events it takes: one without any is refused, so none takes the SLA's by default.
    const noEvents = await call("PATCH", `/v1/inboxes/${desk.inbox.id}`, {
      token: desk.ws.token,
      body: { webhooks: [{ url: "http://127.0.0.1:9/x" }] },
    });
    expect(noEvents.status).toBe(400);
    await desk.open(T0);
    await sweep(T0 + 61 * MIN);
    expect(await deliveriesOf(desk.ws.accountId, "ticket.sla_warning")).toBe(0);
    expect(await deliveriesOf(desk.ws.accountId, "ticket.sla_breached")).toBe(1);
    expect(await deliveriesOf(desk.ws.accountId, "ticket.created")).toBe(1);
  });
});

describe("a merged ticket's SLA", () => {
  it("stops with the merge (it is closed): the sweep fires nothing for it", async () => {
    const desk = await slaDesk();
    const merged = await desk.open(T0);
    const survivor = await desk.open(T0);
    await desk.say(T0 + 1 * MIN, survivor.id, "reply", { status_after_send: "resolved" });
    const res = await manageTicket(desk.at(T0 + 2 * MIN), merged.id, {
      action: "merge",
      into_ticket_id: survivor.id,
    } as never);
    expect(res.status).toBe("closed");
    expect(res.sla?.resolution.met_at).toBe(iso(T0 + 2 * MIN));
    await sweep(T0 + 600 * MIN);
    expect(await slaEvents(desk.ws.accountId)).toEqual([]);
  });
});

describe("a write racing the sweep", () => {
  it("keeps the sweep's mark: a write that read the ticket before the warning fired does not fire it again", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    // The write reads the ticket, then the sweep fires the warning, then the write commits.
    const stale = await findTicket(db(), desk.ws.accountId, ticket.id);
    if (!stale) throw new Error("no ticket");
    await sweep(T0 + 31 * MIN);
    const write = await slaStatements(
      desk.at(T0 + 32 * MIN),
      stale.ticket,
      { ...stale.ticket, status: "open", priority: "normal" },
      "customer",
    );
    expect(write.length).toBe(1);
    await runBatch(db(), write);
    await Promise.all([sweep(T0 + 33 * MIN), sweep(T0 + 34 * MIN)]);
    expect((await slaEvents(desk.ws.accountId)).map((e) => e.event)).toEqual(["ticket.sla_warning"]);
    await sweep(T0 + 61 * MIN);
    expect((await slaEvents(desk.ws.accountId)).map((e) => e.event)).toEqual([
      "ticket.sla_warning",
      "ticket.sla_breached",
    ]);
  });
});
