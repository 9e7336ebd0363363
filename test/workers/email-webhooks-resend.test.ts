import { describe, expect, it } from "vitest";
import { resendStatements } from "../../src/features/email-webhooks/resend";
import {
  commitEvents,
  createEndpoint,
  deliveriesOf,
  type EndpointBody,
  sweepAt,
} from "./email-webhooks-helpers";
import { addKey, callJson, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { awaitDeliveries, endpoint } from "./webhook-helpers";

const resendPath = (id: string, deliveryId: string) => `/v1/webhooks/${id}/deliveries/${deliveryId}/resend`;

/** An endpoint with one `email.sent` event delivered to a real loopback receiver. */
async function deliveredOnce(mode: "ok" | "flaky" = "ok") {
  const ws = await seedWorkspace();
  const hook = endpoint(mode);
  const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
  const now = Date.now();
  const [eventId] = await commitEvents(
    ws.accountId,
    [
      {
        name: "email.sent",
        data: { email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR", recipient: "a@example.com" },
      },
    ],
    now,
  );
  if (!eventId) throw new Error("no event recorded");
  await sweepAt(now);
  await awaitDeliveries(hook.path, 1, 0);
  return { ws, hook, created, eventId };
}

describe("email event webhooks: resending a delivery", { timeout: 60_000 }, () => {
  it("queues the same event id and exact body again, delivered by the normal path and listed", async () => {
    const { ws, hook, created, eventId } = await deliveredOnce();
    const { status, body } = await callJson("POST", resendPath(created.id, eventId), { token: ws.token });
    expect(status).toBe(202);
    expect(body).toEqual({ event_id: eventId, event: "email.sent" });

    const [first, again] = await awaitDeliveries(hook.path, 2);
    expect(again?.headers["x-webhook-id"]).toBe(eventId);
    expect(again?.headers["x-webhook-event"]).toBe("email.sent");
    expect(again?.body).toBe(first?.body);

    const list = await deliveriesOf(ws.token, created.id);
    expect(list.body.pagination.total).toBe(2);
    expect(list.body.data.map((d) => [d.event_id, d.status_code, d.attempt])).toEqual([
      [eventId, 200, 1],
      [eventId, 200, 1],
    ]);
  });

  it("resends a delivery that failed, and the receiver then acknowledges it", async () => {
    const { ws, hook, created, eventId } = await deliveredOnce("flaky");
    expect((await deliveriesOf(ws.token, created.id)).body.data[0]?.status_code).toBe(500);
    expect((await callJson("POST", resendPath(created.id, eventId), { token: ws.token })).status).toBe(202);
    const [, again] = await awaitDeliveries(hook.path, 2, 0);
    expect(again?.headers["x-webhook-id"]).toBe(eventId);
    const list = await deliveriesOf(ws.token, created.id);
    expect(list.body.data[0]).toMatchObject({ event_id: eventId, status_code: 200 });
  });

  it("answers 404 for another workspace's ids, another endpoint's delivery and unknown ids; 403 to a read key", async () => {
    const { ws, created, eventId } = await deliveredOnce();
    const other = await seedWorkspace();
    const otherHook = await createEndpoint(other.token, { url: endpoint().url, events: ["email.sent"] });
    const sibling = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const cases: Array<[string, string, string]> = [
      [other.token, created.id, eventId],
      [other.token, otherHook.id, eventId],
      [ws.token, sibling.id, eventId],
      [ws.token, created.id, "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR"],
      [ws.token, "whk_01JD3Z6X8Y9ABCDEFGHJKMNPQR", eventId],
    ];
    for (const [token, id, deliveryId] of cases) {
      const answer = await callJson<{ error: string }>("POST", resendPath(id, deliveryId), { token });
      expect(answer.status, `${id} ${deliveryId}`).toBe(404);
      expect(answer.body.error).toBeTruthy();
    }
    const reader = await addKey(ws.accountId, "read");
    expect((await callJson("POST", resendPath(created.id, eventId), { token: reader.token })).status).toBe(
      403,
    );
    expect((await deliveriesOf(ws.token, created.id)).body.pagination.total).toBe(1);
  });

  it("refuses (409) to queue an event for a disabled endpoint, and resends once it is enabled", async () => {
    const { ws, hook, created, eventId } = await deliveredOnce();
    const patch = (enabled: boolean) =>
      callJson<EndpointBody>("PATCH", `/v1/webhooks/${created.id}`, { token: ws.token, body: { enabled } });
    await patch(false);
    const refused = await callJson<{ code: string }>("POST", resendPath(created.id, eventId), {
      token: ws.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("webhook_disabled");
    const { env } = await import("cloudflare:workers");
    const rows = await env.DB_2.prepare(
      "SELECT count(*) AS n FROM email_webhook_outbox WHERE endpoint_id = ?",
    )
      .bind(created.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);

    await patch(true);
    expect((await callJson("POST", resendPath(created.id, eventId), { token: ws.token })).status).toBe(202);
    await awaitDeliveries(hook.path, 2, 0);
  });

  it("finds the delivery to copy and its endpoint through indexes", async () => {
    const [endpointLookup, copy] = resendStatements("acc_x", "whk_x", "evt_x", Date.now());
    if (!endpointLookup || !copy) throw new Error("two statements expected");
    expectIndexed(await planOf(endpointLookup), "webhook_endpoints");
    const plan = await planOf(copy);
    expectIndexed(plan, "email_webhook_outbox");
    expectIndexed(plan, "webhook_endpoints");
  });
});
