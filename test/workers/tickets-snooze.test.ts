import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dueSnoozesQuery, wakeSnoozes } from "../../src/features/tickets/snooze-wake";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import {
  call,
  callJson,
  db,
  errorBody,
  eventsOf,
  seedInbox,
  seedWorkspace,
  shardEnv,
  ticketWorkspace,
} from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type Ticket = { id: string; status: string; snoozed_until: string | null; updated_at: string };

async function snoozedTicket(status = "pending") {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  const ticket = (
    await callJson<Ticket>("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Later", status },
    })
  ).body;
  const until = new Date(Date.now() + 3_600_000).toISOString();
  const snoozed = await manage(ws.token, ticket.id, { action: "snooze", until });
  expect(snoozed.status).toBe(200);
  return { ws, ticket, until, time: Date.parse(until) + 30_000 };
}

const manage = (token: string, id: string, body: Record<string, unknown>) =>
  callJson<Ticket>("POST", `/v1/tickets/${id}/manage`, { token, body });

const ticketOf = async (token: string, id: string) =>
  (await callJson<Ticket>("GET", `/v1/tickets/${id}`, { token })).body;

const updates = async (accountId: string) =>
  (await eventsOf(accountId)).filter((e) => e.event === "ticket.updated");

/** The minute cron as Cloudflare runs it, at `time`. */
const runCron = (time: number) =>
  worker.scheduled(
    createScheduledController({ cron: CRON.everyMinute, scheduledTime: time }),
    env,
    createExecutionContext(),
  );

describe("snooze wakes up", () => {
  it("keeps the status while snoozed; the minute cron after `until` reopens it once and fires ticket.updated", async () => {
    const { ws, ticket, until, time } = await snoozedTicket();
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "pending", snoozed_until: until });
    await runCron(Date.parse(until) - 30_000);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "pending", snoozed_until: until });
    await runCron(time);
    const woken = await ticketOf(ws.token, ticket.id);
    expect(woken).toMatchObject({
      status: "open",
      snoozed_until: null,
      updated_at: new Date(time).toISOString(),
    });
    await runCron(time + 60_000);
    const events = await updates(ws.accountId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.ticket).toMatchObject({ id: ticket.id, status: "open" });
  });

  it("two sweeps that read the same due snooze at once wake the ticket once, with one event", async () => {
    const { ws, ticket, time } = await snoozedTicket("on_hold");
    const [first, second] = [await dueSnoozesQuery(db(), time, 500), await dueSnoozesQuery(db(), time, 500)];
    expect(first?.map((row) => row.ticket.id)).toContain(ticket.id);
    const woken = await Promise.all([
      wakeSnoozes(db(), shardEnv(), first, time),
      wakeSnoozes(db(), shardEnv(), second, time),
    ]);
    expect(woken.reduce((a, b) => a + b, 0)).toBe(first.length);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "open", snoozed_until: null });
    expect(await updates(ws.accountId)).toHaveLength(1);
  });

  it("a snooze moved or ended after the sweep read it is not woken", async () => {
    const moved = await snoozedTicket();
    const ended = await snoozedTicket();
    const due = await dueSnoozesQuery(db(), moved.time, 500);
    const later = new Date(moved.time + 86_400_000).toISOString();
    expect((await manage(moved.ws.token, moved.ticket.id, { action: "snooze", until: later })).status).toBe(
      200,
    );
    expect((await manage(ended.ws.token, ended.ticket.id, { action: "unsnooze" })).status).toBe(200);
    await wakeSnoozes(db(), shardEnv(), due, moved.time);
    expect(await ticketOf(moved.ws.token, moved.ticket.id)).toMatchObject({
      status: "pending",
      snoozed_until: later,
    });
    expect(await ticketOf(ended.ws.token, ended.ticket.id)).toMatchObject({
      status: "pending",
      snoozed_until: null,
    });
    expect(await updates(moved.ws.accountId)).toEqual([]);
    expect(await updates(ended.ws.accountId)).toEqual([]);
  });

  it("finds due snoozes through the partial index, without a sort", async () => {
    const plan = await planOf(dueSnoozesQuery(db(), Date.now(), 500));
    expect(plan.join("\n")).toContain("USING INDEX tickets_snoozed_until");
    expectIndexed(plan, "tickets");
  });
});

describe("snooze rules", () => {
  it("refuses an `until` in the past with 400 and leaves the ticket as it was", async () => {
    const { ws, ticket, until } = await snoozedTicket();
    const res = await manage(ws.token, ticket.id, {
      action: "snooze",
      until: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error" });
    expect((await ticketOf(ws.token, ticket.id)).snoozed_until).toBe(until);
  });

  it("refuses to snooze a resolved, closed or spam ticket with 409", async () => {
    for (const status of ["resolved", "closed", "spam"]) {
      const ws = await seedWorkspace();
      const inbox = await seedInbox(ws.accountId);
      const ticket = (
        await callJson<Ticket>("POST", "/v1/tickets", {
          token: ws.token,
          body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Done", status },
        })
      ).body;
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const res = await manage(ws.token, ticket.id, { action: "snooze", until });
      expect(res.status, status).toBe(409);
      expect(res.body).toEqual({
        ...errorBody("Ticket cannot be snoozed", "ticket_not_snoozable"),
        message: `${ticket.id} is ${status}; only open, pending and on-hold tickets can be snoozed.`,
      });
      expect((await ticketOf(ws.token, ticket.id)).snoozed_until).toBeNull();
    }
  });

  it("closing, resolving or marking spam ends the snooze, so the cron reopens nothing", async () => {
    const cases = [
      async (token: string, id: string) => manage(token, id, { action: "close" }),
      async (token: string, id: string) => manage(token, id, { action: "spam" }),
      async (token: string, id: string) =>
        callJson<Ticket>("PATCH", `/v1/tickets/${id}`, { token, body: { status: "resolved" } }),
    ];
    for (const change of cases) {
      const { ws, ticket, time } = await snoozedTicket();
      expect((await change(ws.token, ticket.id)).body.snoozed_until).toBeNull();
      const before = await ticketOf(ws.token, ticket.id);
      await runCron(time);
      expect(await ticketOf(ws.token, ticket.id)).toEqual(before);
    }
  });

  it("a reply that resolves the ticket ends the snooze; one that leaves it pending keeps it", async () => {
    const { ws, ticket } = await ticketWorkspace("snooze");
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect((await manage(ws.token, ticket.id, { action: "snooze", until })).status).toBe(200);
    const reply = (status: string) =>
      call("POST", `/v1/tickets/${ticket.id}/messages`, {
        token: ws.token,
        body: { type: "reply", body_text: "Checked", status_after_send: status },
      });
    expect((await reply("pending")).status).toBe(201);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "pending", snoozed_until: until });
    expect((await reply("resolved")).status).toBe(201);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "resolved", snoozed_until: null });
  });

  it("a customer message ends the snooze and reopens the ticket", async () => {
    const { ws, ticket } = await snoozedTicket();
    const res = await call("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "customer", body_text: "Any news?" },
    });
    expect(res.status).toBe(201);
    expect(await ticketOf(ws.token, ticket.id)).toMatchObject({ status: "open", snoozed_until: null });
  });
});
