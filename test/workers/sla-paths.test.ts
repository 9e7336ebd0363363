import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { callJson, eventsOf } from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { MIN, slaDesk, T0 } from "./sla-helpers";

type Sla = {
  first_response: { due_at: string | null; met_at: string | null };
  resolution: { due_at: string | null };
};

describe("the SLA on every path", () => {
  it("starts on a ticket opened by inbound mail", async () => {
    const desk = await slaDesk();
    const before = Date.now();
    await deliver(fill(FIXTURES.plainText, { TO: desk.inbox.emailAddress, ID: "sla-mail" }), {
      to: desk.inbox.emailAddress,
    });
    const { body } = await callJson<{ data: Array<{ sla: Sla }> }>("GET", "/v1/tickets", {
      token: desk.ws.token,
    });
    const due = Date.parse(body.data[0]?.sla.first_response.due_at ?? "");
    expect(due).toBeGreaterThanOrEqual(before + 60 * MIN);
    expect(due).toBeLessThanOrEqual(Date.now() + 60 * MIN);
  });

  it("is met at once on a ticket an agent opens with compose", async () => {
    const desk = await slaDesk();
    const res = await callJson<{ id: string; sla: Sla }>("POST", "/v1/tickets/compose", {
      token: desk.ws.token,
      body: { inbox_id: desk.inbox.id, to: "ada@example.com", subject: "Hello", body_text: "Hi" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.sla.first_response.met_at).not.toBeNull();
    // The inbox's after-reply status (pending) pauses resolution from the start.
    expect(res.body.sla.resolution.due_at).toBeNull();
  });

  it("fires through the minute's cron", async () => {
    const desk = await slaDesk();
    await desk.open(T0);
    const ctx = createExecutionContext();
    const controller = createScheduledController({ cron: CRON.everyMinute, scheduledTime: T0 + 61 * MIN });
    await worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);
    const names = (await eventsOf(desk.ws.accountId))
      .map((e) => e.event)
      .filter((e) => e.startsWith("ticket.sla"));
    expect(names).toEqual(["ticket.sla_breached"]);
  });
});
