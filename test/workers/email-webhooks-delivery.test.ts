import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { EMAIL_WEBHOOK_RETENTION_MS, pruneEmailWebhooks } from "../../src/jobs/prune-email-webhooks";
import { CRON } from "../../src/jobs/schedules";
import { DISABLE_AFTER_FAILING_MS } from "../../src/webhooks/email-events";
import {
  commitEvents,
  createEndpoint,
  deliveriesOf,
  type EndpointBody,
  hmacHex,
  sweepAt,
} from "./email-webhooks-helpers";
import { call, callJson, db, eventually, seedWorkspace } from "./helpers";
import { awaitDeliveries, endpoint, receivedAt, verifyElsewhere } from "./webhook-helpers";

const sent = (recipient: string) => ({
  name: "email.sent" as const,
  data: { email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR", recipient },
});

/**
 * A clock far ahead for tests that read a row's state between sweeps: other files run the minute
 * cron on the shared database (at most an hour ahead), and must not take these rows meanwhile.
 */
const ahead = () => Date.now() + 100 * 86_400_000;

const outboxOf = (endpointId: string) =>
  env.DB_2.prepare(
    "SELECT event_id, state, attempts, next_attempt_at FROM email_webhook_outbox WHERE endpoint_id = ? ORDER BY id",
  )
    .bind(endpointId)
    .all<{ event_id: string; state: string; attempts: number; next_attempt_at: number | null }>()
    .then((r) => r.results);

describe("email event webhooks: delivery", { timeout: 60_000 }, () => {
  it("sends a signed webhook.test that an independent HMAC and Stripe's verifier accept", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    // Subscribed to nothing the test event is: it goes to this endpoint all the same.
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.bounced"] });
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await callJson<{ event_id: string; event: string }>(
      "POST",
      `/v1/webhooks/${created.id}/test`,
      { token: ws.token },
    );
    expect(status).toBe(202);
    expect(body).toEqual({ event_id: expect.stringMatching(/^evt_/), event: "webhook.test" });

    const [request] = await awaitDeliveries(hook.path, 1);
    if (!request) throw new Error("nothing arrived");
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-webhook-event": "webhook.test",
      "x-webhook-id": body.event_id,
    });
    const envelope = JSON.parse(request.body);
    expect(Object.keys(envelope)).toEqual(["id", "event", "timestamp", "data"]);
    expect(envelope).toMatchObject({
      id: body.event_id,
      event: "webhook.test",
      data: { endpoint_id: created.id },
    });

    const header = request.headers["x-service-signature"] ?? "";
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
    expect(Number(t)).toBeGreaterThanOrEqual(before);
    expect(v1).toBe(await hmacHex(created.secret, `${t}.${request.body}`));
    expect(v1).not.toBe(
      await hmacHex(created.secret, `${t}.${request.body.replace("webhook.test", "webhook.tesT")}`),
    );
    expect(await verifyElsewhere(request.body, header, created.secret)).toEqual({
      readme: "valid",
      stripe: "valid",
    });

    const attempts = await eventually(async () => {
      const { body: page } = await deliveriesOf(ws.token, created.id);
      return page.data.length > 0 ? page : null;
    });
    expect(attempts.data).toEqual([
      {
        event_id: body.event_id,
        event: "webhook.test",
        attempt: 1,
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        created_at: expect.any(String),
        payload: envelope,
      },
    ]);
    expect(attempts.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
  });

  it("retries a 500 with backoff and lists both attempts, newest first", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint("flaky");
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    const [eventId] = await commitEvents(ws.accountId, [sent("ada@example.com")], t0);

    await sweepAt(t0);
    expect(await outboxOf(created.id)).toEqual([
      { event_id: eventId, state: "pending", attempts: 1, next_attempt_at: t0 + 60_000 },
    ]);
    // Not due yet: a sweep a moment later sends nothing.
    await sweepAt(t0 + 59_000);
    expect(await receivedAt(hook.path)).toHaveLength(1);

    await sweepAt(t0 + 60_000);
    const requests = await receivedAt(hook.path);
    expect(requests).toHaveLength(2);
    // Every attempt sends the same event: the same id and the same bytes.
    expect(requests[1]?.body).toBe(requests[0]?.body);
    expect(requests.map((r) => r.headers["x-webhook-id"])).toEqual([eventId, eventId]);
    expect(await outboxOf(created.id)).toEqual([
      { event_id: eventId, state: "succeeded", attempts: 2, next_attempt_at: null },
    ]);

    const { body } = await deliveriesOf(ws.token, created.id);
    expect(body.data.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [2, 200, null],
      [1, 500, "HTTP 500"],
    ]);
    expect(body.data[0]?.payload.data).toEqual({
      email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
      recipient: "ada@example.com",
    });
  });

  it("writes rows only for the account's enabled endpoints subscribed to the event", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const takes = await createEndpoint(ws.token, {
      url: endpoint().url,
      events: ["email.sent", "email.bounced"],
    });
    const ignores = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.bounced"] });
    const off = await createEndpoint(ws.token, {
      url: endpoint().url,
      events: ["email.sent"],
      enabled: false,
    });
    const foreign = await createEndpoint(other.token, { url: endpoint().url, events: ["email.sent"] });
    const now = ahead(); // not due for any sweep running meanwhile
    const ids = await commitEvents(ws.accountId, [sent("a@example.com"), sent("b@example.com")], now);
    expect((await outboxOf(takes.id)).map((row) => row.event_id)).toEqual(ids);
    for (const quiet of [ignores, off, foreign]) expect(await outboxOf(quiet.id)).toEqual([]);
    // No endpoints at all: nothing written, nothing to fail.
    const empty = await seedWorkspace();
    expect(await commitEvents(empty.accountId, [sent("c@example.com")], now)).toHaveLength(1);
  });

  it("sends each committed event once when sweeps race (a crash before the announcement)", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    const ids = await commitEvents(
      ws.accountId,
      Array.from({ length: 6 }, (_, i) => sent(`r${i}@example.com`)),
      t0,
    );
    // Nothing announced them: the sweeps find them. Three at once claim each row once between them.
    await Promise.all([sweepAt(t0), sweepAt(t0), sweepAt(t0)]);
    const requests = await awaitDeliveries(hook.path, 6);
    expect(requests.map((r) => r.headers["x-webhook-id"]).sort()).toEqual([...ids].sort());
    expect((await outboxOf(created.id)).every((row) => row.state === "succeeded" && row.attempts === 1)).toBe(
      true,
    );
    // A later sweep, as a redelivered message would, sends none again.
    await sweepAt(t0 + 86_400_000);
    expect(await receivedAt(hook.path)).toHaveLength(6);
  });

  it("delivers from the minute cron, through the WebhookSender entrypoint, events nobody announced", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.bounced"] });
    const t0 = Date.now();
    const [eventId] = await commitEvents(
      ws.accountId,
      [{ name: "email.bounced", data: { recipient: "gone@example.com" } }],
      t0,
    );
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: CRON.everyMinute, scheduledTime: t0 }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const [request] = await awaitDeliveries(hook.path, 1);
    expect(request?.headers["x-webhook-id"]).toBe(eventId);
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({ id: eventId, event: "email.bounced" });
    await eventually(async () => (await outboxOf(created.id))[0]?.state === "succeeded");
  });

  it("disables an endpoint whose deliveries have failed for 3 days, and PATCH re-enables it", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint("fail");
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    await commitEvents(ws.accountId, [sent("a@example.com")], t0);
    await sweepAt(t0);
    const failing = await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, { token: ws.token });
    expect(failing.body).toMatchObject({ enabled: true, disabled_reason: null });

    // Just short of 3 days of failures: still enabled.
    const almost = t0 + DISABLE_AFTER_FAILING_MS - 60_000;
    await commitEvents(ws.accountId, [sent("b@example.com")], almost);
    await sweepAt(almost);
    expect(
      (await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, { token: ws.token })).body.enabled,
    ).toBe(true);

    const later = t0 + DISABLE_AFTER_FAILING_MS;
    await commitEvents(ws.accountId, [sent("c@example.com")], later);
    await sweepAt(later);
    const disabled = await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, { token: ws.token });
    expect(disabled.body.enabled).toBe(false);
    expect(disabled.body.disabled_reason).toMatch(/^every delivery failed from .+ \(the last: HTTP 500\)/);

    // Disabled: new events are not queued for it, and queued ones are closed unsent.
    const sentBefore = (await receivedAt(hook.path)).length;
    await commitEvents(ws.accountId, [sent("d@example.com")], later);
    await sweepAt(later + 10 * 3_600_000);
    expect(await receivedAt(hook.path)).toHaveLength(sentBefore);
    const states = (await outboxOf(created.id)).map((row) => row.state);
    expect(states).toHaveLength(3);
    expect(states).not.toContain("delivering");

    const patched = await callJson<EndpointBody>("PATCH", `/v1/webhooks/${created.id}`, {
      token: ws.token,
      body: { enabled: true },
    });
    expect(patched.body).toMatchObject({ enabled: true, disabled_reason: null });
    // Its streak starts again: one more failure does not disable it.
    const resumed = later + DISABLE_AFTER_FAILING_MS;
    await commitEvents(ws.accountId, [sent("e@example.com")], resumed);
    await sweepAt(resumed);
    expect(
      (await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, { token: ws.token })).body.enabled,
    ).toBe(true);
    expect((await call("GET", `/v1/webhooks/${created.id}/deliveries`, { token: ws.token })).status).toBe(
      200,
    );
  });

  it("prunes finished events past retention with their attempts, and keeps the rest", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const old = Date.now() - EMAIL_WEBHOOK_RETENTION_MS - 60_000;
    const [expired] = await commitEvents(ws.accountId, [sent("old@example.com")], old);
    await sweepAt(old);
    const young = ahead();
    const [kept] = await commitEvents(ws.accountId, [sent("new@example.com")], young);
    expect((await deliveriesOf(ws.token, created.id)).body.pagination.total).toBe(1);

    expect(await pruneEmailWebhooks(db(), Date.now())).toBeGreaterThanOrEqual(1);
    expect((await outboxOf(created.id)).map((row) => row.event_id)).toEqual([kept]);
    expect(kept).not.toBe(expired);
    expect((await deliveriesOf(ws.token, created.id)).body.pagination.total).toBe(0);
  });
});
