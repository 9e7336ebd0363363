import { describe, expect, it } from "vitest";
import { callJson } from "./helpers";
import { iso, MIN, slaDesk, T0 } from "./sla-helpers";

describe("a ticket's SLA", () => {
  it("is null without a policy for the inbox", async () => {
    const desk = await slaDesk({ inbox_ids: [] });
    const ticket = await desk.open(T0);
    expect(ticket.sla).toBeNull();
  });

  it("starts first response and resolution at creation, pauses while pending, resumes from the change", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    expect(ticket.sla).toEqual({
      policy_id: desk.policyId,
      first_response: { due_at: iso(T0 + 60 * MIN), breached: false, met_at: null, remaining_minutes: 60 },
      next_response: { due_at: null, breached: false, met_at: null, remaining_minutes: null },
      resolution: { due_at: iso(T0 + 480 * MIN), breached: false, met_at: null, remaining_minutes: 480 },
      paused: false,
    });
    const pending = await desk.patch(T0 + 10 * MIN, ticket.id, { status: "pending" });
    expect(pending.sla?.paused).toBe(true);
    expect(pending.sla?.first_response).toMatchObject({ due_at: null, remaining_minutes: 50 });
    // An hour later still 50 minutes left: paused time does not count.
    expect((await desk.show(T0 + 70 * MIN, ticket.id)).sla?.first_response.remaining_minutes).toBe(50);
    const open = await desk.patch(T0 + 70 * MIN, ticket.id, { status: "open" });
    expect(open.sla?.first_response).toMatchObject({ due_at: iso(T0 + 120 * MIN), remaining_minutes: 50 });
    expect(open.sla?.resolution.due_at).toBe(iso(T0 + 540 * MIN));
  });

  it("meets first response with a reply, starts next response with the customer's message, meets resolution when resolved", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    await desk.say(T0 + 20 * MIN, ticket.id, "note");
    expect((await desk.show(T0 + 20 * MIN, ticket.id)).sla?.first_response.met_at).toBeNull();
    await desk.say(T0 + 30 * MIN, ticket.id, "reply", { status_after_send: "open" });
    const replied = await desk.show(T0 + 30 * MIN, ticket.id);
    expect(replied.sla?.first_response).toMatchObject({ met_at: iso(T0 + 30 * MIN), breached: false });
    expect(replied.sla?.next_response.due_at).toBeNull();

    await desk.say(T0 + 100 * MIN, ticket.id, "customer");
    const asked = await desk.show(T0 + 100 * MIN, ticket.id);
    expect(asked.sla?.next_response).toMatchObject({ due_at: iso(T0 + 220 * MIN), met_at: null });
    // A second customer message keeps the first one's due time.
    await desk.say(T0 + 110 * MIN, ticket.id, "customer");
    expect((await desk.show(T0 + 110 * MIN, ticket.id)).sla?.next_response.due_at).toBe(iso(T0 + 220 * MIN));
    // Answered late: met, and breached.
    await desk.say(T0 + 250 * MIN, ticket.id, "reply", { status_after_send: "open" });
    const late = await desk.show(T0 + 250 * MIN, ticket.id);
    expect(late.sla?.next_response).toMatchObject({ met_at: iso(T0 + 250 * MIN), breached: true });

    const resolved = await desk.patch(T0 + 300 * MIN, ticket.id, { status: "resolved" });
    expect(resolved.sla?.resolution).toMatchObject({ met_at: iso(T0 + 300 * MIN), breached: false });
    expect(resolved.sla?.paused).toBe(true);
  });

  it("works the due times out again for a new priority, from the same start less paused time", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    await desk.patch(T0 + 5 * MIN, ticket.id, { status: "on_hold" });
    await desk.patch(T0 + 25 * MIN, ticket.id, { status: "open" });
    // 5 minutes used before the pause; urgent's first response is 15: due 10 minutes after resuming.
    const urgent = await desk.patch(T0 + 26 * MIN, ticket.id, { priority: "urgent" });
    expect(urgent.sla?.first_response.due_at).toBe(iso(T0 + 35 * MIN));
    expect(urgent.sla?.resolution.due_at).toBe(iso(T0 + 260 * MIN));
    // Past it, the ticket shows the breach and lists under sla_breached once a write or the sweep marks it.
    const past = await desk.show(T0 + 40 * MIN, ticket.id);
    expect(past.sla?.first_response).toMatchObject({ breached: true, remaining_minutes: -5 });
  });

  it("counts business hours: a Friday-evening ticket is due on Monday", async () => {
    const desk = await slaDesk({
      hours: { timezone: "Europe/Paris", schedule: { mon: [["09:00", "17:00"]], fri: [["09:00", "17:00"]] } },
    });
    // Friday 4 December 2026, 16:30 Paris (15:30Z): 30 working minutes left that day.
    const ticket = await desk.open(Date.parse("2026-12-04T15:30:00Z"));
    expect(ticket.sla?.first_response.due_at).toBe("2026-12-07T08:30:00.000Z");
  });

  it("is shown by GET and the list, and the list filters on sla_breached and sla_due_before", async () => {
    const desk = await slaDesk();
    const now = Date.now();
    const soon = await desk.open(now, { priority: "urgent" });
    const later = await desk.open(now);
    const overdue = await desk.open(now - 200 * MIN, { priority: "urgent" });
    // A write past its due time marks it breached (the sweep does the same for tickets nobody touches).
    await desk.patch(now, overdue.id, { priority: "urgent", subject: "Still waiting" });
    await desk.patch(now, overdue.id, { status: "pending" });
    const got = await callJson<{ sla: unknown }>("GET", `/v1/tickets/${soon.id}`, { token: desk.ws.token });
    expect(got.body.sla).toMatchObject({ policy_id: desk.policyId });
    const due = await callJson<{ data: Array<{ id: string }> }>(
      "GET",
      `/v1/tickets?sla_due_before=${encodeURIComponent(iso(now + 30 * MIN))}`,
      { token: desk.ws.token },
    );
    expect(due.body.data.map((t) => t.id)).toEqual([soon.id]);
    const dueLater = await callJson<{ data: Array<{ id: string }> }>(
      "GET",
      `/v1/tickets?sla_due_before=${encodeURIComponent(iso(now + 120 * MIN))}`,
      { token: desk.ws.token },
    );
    expect(dueLater.body.data.map((t) => t.id)).toEqual([soon.id, later.id]);
    const breached = await callJson<{ data: Array<{ id: string }>; pagination: { total: number } }>(
      "GET",
      "/v1/tickets?sla_breached=true",
      { token: desk.ws.token },
    );
    expect(breached.body.data.map((t) => t.id)).toEqual([overdue.id]);
    expect(breached.body.pagination.total).toBe(1);
    const bad = await callJson("GET", "/v1/tickets?sla_breached=yes", { token: desk.ws.token });
    expect(bad.status).toBe(400);
  });
});
