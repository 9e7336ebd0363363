import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { d1RoundTrips } from "../../src/db/counting-d1";
import worker from "../../src/index";
import { callJson, seedInbox } from "./helpers";
import { iso, MIN, slaDesk, T0 } from "./sla-helpers";

/**
 * A ticket's writes read its policy from the inbox's copy (src/features/sla/inbox-policy.ts): every
 * policy write must keep that copy as the policy is, or tickets would start under old terms.
 */
describe("the inbox's copy of its SLA policy", () => {
  it("follows the policy's edits, its inboxes, its switch and its deletion", async () => {
    const desk = await slaDesk();
    const edit = (body: Record<string, unknown>) =>
      callJson("PATCH", `/v1/sla-policies/${desk.policyId}`, { token: desk.ws.token, body });

    // New targets reach the next new ticket, and a running one at its next write.
    const running = await desk.open(T0);
    expect(
      (await edit({ targets: { normal: { first_response: 30, next_response: 60, resolution: 120 } } }))
        .status,
    ).toBe(200);
    expect((await desk.open(T0)).sla?.first_response.due_at).toBe(iso(T0 + 30 * MIN));
    const moved = await desk.patch(T0 + MIN, running.id, { priority: "normal", status: "on_hold" });
    expect(moved.sla?.resolution.remaining_minutes).toBe(119);

    // Switched off: new tickets start without an SLA; on again: with it.
    expect((await edit({ enabled: false })).status).toBe(200);
    expect((await desk.open(T0)).sla).toBeNull();
    expect((await edit({ enabled: true })).status).toBe(200);
    expect((await desk.open(T0)).sla?.policy_id).toBe(desk.policyId);

    // The inbox taken off the policy, then another put under it.
    const other = await seedInbox(desk.ws.accountId, `other-${crypto.randomUUID().slice(0, 6)}@example.com`);
    expect((await edit({ inbox_ids: [other.id] })).status).toBe(200);
    expect((await desk.open(T0)).sla).toBeNull();
    expect((await desk.open(T0, { inbox_id: other.id })).sla?.policy_id).toBe(desk.policyId);

    // Deleted: nothing starts under it any more.
    const deleted = await callJson("DELETE", `/v1/sla-policies/${desk.policyId}`, { token: desk.ws.token });
    expect(deleted.status).toBe(200);
    expect((await desk.open(T0, { inbox_id: other.id })).sla).toBeNull();
  });

  it("moving a ticket's SLA costs /manage no round trip of its own", async () => {
    const desk = await slaDesk();
    const plain = await seedInbox(desk.ws.accountId, `plain-${crypto.randomUUID().slice(0, 6)}@example.com`);
    const roundTrips = async (id: string, body: Record<string, unknown>) => {
      const before = d1RoundTrips().by_entry.fetch;
      const ctx = createExecutionContext();
      const request = new Request(`http://127.0.0.1:8787/v1/tickets/${id}/manage`, {
        method: "POST",
        headers: { Authorization: `Bearer ${desk.ws.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const vars = { ENVIRONMENT: "development", D1_ROUND_TRIPS: "count" };
      const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status, await res.text()).toBe(200);
      return d1RoundTrips().by_entry.fetch - before;
    };
    const now = Date.now();
    for (const body of [
      { action: "set_priority", priority: "urgent" },
      { action: "hold" },
      { action: "reopen" },
    ]) {
      const timed = await desk.open(now);
      const untimed = await desk.open(now, { inbox_id: plain.id });
      expect(untimed.sla).toBeNull();
      expect(await roundTrips(timed.id, body), JSON.stringify(body)).toBe(await roundTrips(untimed.id, body));
    }
  });
});
