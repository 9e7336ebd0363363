import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { updateTicket } from "../../src/features/tickets/ticket-update";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { deliver, WEBHOOK_TIMEOUT_MS } from "../../src/webhooks/deliver";
import { db, eventually, shardEnv } from "./helpers";
import {
  awaitDeliveries,
  endpoint,
  envelopesAt,
  inboxWithWebhooks,
  openTicket,
  receivedAt,
  streamOf,
  verifyElsewhere,
} from "./webhook-helpers";

/** An event whose Queue send failed: the change commits through the service with a broken Queue. */
async function eventWithoutQueue(ws: { accountId: string; token: string }, ticketId: string) {
  const brokenQueue = {
    send: () => Promise.reject(new Error("queue unavailable")),
    sendBatch: () => Promise.reject(new Error("queue unavailable")),
  } as unknown as Queue;
  await updateTicket(
    {
      db: db(),
      env: { ...shardEnv(), WEBHOOK_QUEUE: brokenQueue },
      accountId: ws.accountId,
      now: Date.now(),
    },
    ticketId,
    { priority: "urgent" },
  );
  const row = await env.DB_2.prepare(
    "SELECT id, dispatched_at FROM events WHERE account_id = ? AND event = 'ticket.updated'",
  )
    .bind(ws.accountId)
    .first<{ id: string; dispatched_at: number | null }>();
  if (!row) throw new Error("no event recorded");
  return row;
}

async function runMinuteCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: CRON.everyMinute, scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("webhook deliveries", { timeout: 30_000 }, () => {
  it("posts the envelope with the spec's headers and a signature independent verifiers accept", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.created"] }]);
    const before = Math.floor(Date.now() / 1000);
    await openTicket(ws.token, inbox.id);
    const [request] = await awaitDeliveries(hook.path, 1);
    if (!request) throw new Error("nothing arrived");
    const envelope = JSON.parse(request.body);

    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-webhook-event": "ticket.created",
      "x-webhook-id": envelope.id,
    });
    expect(Object.keys(envelope)).toEqual(["id", "event", "timestamp", "data"]);
    const signature = request.headers["x-service-signature"] ?? "";
    const [, t] = /^t=(\d+),v1=[0-9a-f]{64}$/.exec(signature) ?? [];
    expect(Number(t)).toBeGreaterThanOrEqual(before);
    expect(Number(t)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));

    const secret = inbox.webhooks[0]?.secret ?? "";
    expect(await verifyElsewhere(request.body, signature, secret)).toEqual({
      readme: "valid",
      stripe: "valid",
    });
    // The signature covers these exact bytes and this secret, nothing looser.
    const tampered = request.body.replace("Printer on fire", "Printer on ice");
    expect(await verifyElsewhere(tampered, signature, secret)).toMatchObject({ readme: "bad signature" });
    expect((await verifyElsewhere(request.body, signature, `${secret}x`)).stripe).not.toBe("valid");

    const [event] = await streamOf(ws);
    expect(event?.deliveries).toEqual([
      {
        id: expect.stringMatching(/^dlv_/),
        url: hook.url,
        status: "succeeded",
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        attempted_at: expect.any(String),
      },
    ]);
  });

  it("records a 500 and a redirect as failed, follows nothing and retries nothing", async () => {
    const failing = endpoint("fail");
    const moving = endpoint("redirect");
    const { ws, inbox } = await inboxWithWebhooks([
      { url: failing.url, events: ["ticket.created"] },
      { url: moving.url, events: ["ticket.created"] },
    ]);
    await openTicket(ws.token, inbox.id);
    await awaitDeliveries(failing.path, 1);
    const deliveries = await eventually(async () => {
      const [event] = await streamOf(ws);
      const done = event?.deliveries.every((d) => d.status === "failed");
      return done ? event?.deliveries : null;
    });
    expect(deliveries.map((d) => [d.url, d.status_code, d.error])).toEqual(
      expect.arrayContaining([
        [failing.url, 500, "HTTP 500"],
        [moving.url, 302, `redirect to ${moving.path}-moved not followed`],
      ]),
    );
    await runMinuteCron(Date.now() + 5 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await receivedAt(failing.path)).toHaveLength(1);
    expect(await receivedAt(moving.path)).toHaveLength(1);
    expect(await receivedAt(`${moving.path}-moved`)).toEqual([]);
  });

  it("gives up on a receiver silent past 10 s without holding up the event's other webhook", async () => {
    const silent = endpoint("hang");
    const healthy = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([
      { url: silent.url, events: ["ticket.created"] },
      { url: healthy.url, events: ["ticket.created"] },
    ]);
    const started = Date.now();
    await openTicket(ws.token, inbox.id);
    await awaitDeliveries(healthy.path, 1, 0);
    expect(Date.now() - started).toBeLessThan(5_000);

    const failed = await eventually(async () => {
      const [event] = await streamOf(ws);
      return event?.deliveries.find((d) => d.url === silent.url && d.status === "failed");
    }, 20_000);
    expect(failed).toMatchObject({ status_code: null, error: "no answer within 10 s" });
    expect(failed.duration_ms).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 50);
    expect(failed.duration_ms).toBeLessThan(WEBHOOK_TIMEOUT_MS + 2_000);
    expect(await receivedAt(silent.path)).toHaveLength(1);
  });

  it("keeps dispatching later events while a receiver hangs", async () => {
    const silent = endpoint("hang");
    const healthy = endpoint();
    const first = await inboxWithWebhooks([{ url: silent.url, events: ["ticket.created"] }]);
    const second = await inboxWithWebhooks([{ url: healthy.url, events: ["ticket.created"] }]);
    await openTicket(first.ws.token, first.inbox.id);
    await awaitDeliveries(silent.path, 1, 0);
    // The silent receiver holds its request for 10 s; the Queue's next batch must not wait for it.
    const started = Date.now();
    await openTicket(second.ws.token, second.inbox.id);
    await awaitDeliveries(healthy.path, 1, 0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("never attempts a delivery twice when the Queue delivers a message again", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.updated"] }]);
    const ticket = await openTicket(ws.token, inbox.id);
    const event = await eventWithoutQueue(ws, ticket.id);
    expect(event.dispatched_at).toBeNull();

    // The same message twice in one batch and once more in a concurrent batch, each naming its
    // workspace as every dispatch message does (webhooks/announce.ts).
    const body = { eventId: event.id, accountId: ws.accountId };
    const message = (id: string) => ({ id, timestamp: new Date(), attempts: 1, body });
    const batches = [
      createMessageBatch("webhook-dispatch", [message("a"), message("b")]),
      createMessageBatch("webhook-dispatch", [message("c")]),
    ];
    const results = await Promise.all(
      batches.map(async (batch) => {
        const ctx = createExecutionContext();
        await worker.queue(batch, env, ctx);
        return getQueueResult(batch, ctx);
      }),
    );
    for (const result of results) expect(result.retryBatch.retry).toBe(false);
    // And once more through the real Queue, after the attempt.
    await awaitDeliveries(hook.path, 1, 0);
    await env.WEBHOOK_QUEUE.send(body);
    expect(await awaitDeliveries(hook.path, 1, 2_500)).toHaveLength(1);
    const [updated] = await streamOf(ws);
    expect(updated?.deliveries.map((d) => d.status)).toEqual(["succeeded"]);
    expect(updated?.dispatched_at).not.toBeNull();
  });

  it("delivers from the minute sweep an event whose Queue send failed", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.updated"] }]);
    const ticket = await openTicket(ws.token, inbox.id);
    const event = await eventWithoutQueue(ws, ticket.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await receivedAt(hook.path)).toEqual([]);

    await runMinuteCron(Date.now() + 31_000);
    const [request] = await receivedAt(hook.path);
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      id: event.id,
      event: "ticket.updated",
      data: { ticket: { priority: "urgent" } },
    });
    expect(await envelopesAt(hook.path)).toHaveLength(1);
  });

  it("records an attempt whose outcome was lost as unknown, not failed, without another attempt", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.updated"] }]);
    const ticket = await openTicket(ws.token, inbox.id);
    const event = await eventWithoutQueue(ws, ticket.id);
    // As if a Worker claimed the delivery and stopped before the answer came.
    const claimedAt = Date.now() - 3 * 60_000;
    await env.DB_2.batch([
      env.DB_2.prepare(
        "UPDATE webhook_deliveries SET status = 'sending', attempted_at = ? WHERE event_id = ?",
      ).bind(claimedAt, event.id),
      env.DB_2.prepare("UPDATE events SET dispatched_at = ? WHERE id = ?").bind(claimedAt, event.id),
    ]);
    await runMinuteCron(Date.now());
    const [updated] = await streamOf(ws);
    // The receiver may well have got it: the record says so rather than claim a failure.
    expect(updated?.deliveries).toEqual([
      expect.objectContaining({
        status: "unknown",
        status_code: null,
        error: expect.stringMatching(/outcome .*lost.*may or may not have received it/),
      }),
    ]);
    // Final: a later sweep neither attempts it nor changes the record.
    await runMinuteCron(Date.now() + 60_000);
    const [again] = await streamOf(ws);
    expect(again?.deliveries.map((d) => d.status)).toEqual(["unknown"]);
    expect(await receivedAt(hook.path)).toEqual([]);
  });

  it("does not reach loopback or private addresses in production, whatever is stored", async () => {
    const hook = endpoint();
    const event = { id: "evt_X", name: "ticket.created", body: "{}" };
    for (const url of [
      hook.url,
      "https://10.0.0.8/hook",
      "https://169.254.169.254/latest",
      "https://[::127.0.0.1]/",
      "https://[::a9fe:a9fe]/latest",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[2002:a9fe:a9fe::1]/",
      "https://198.18.0.1/",
    ]) {
      const result = await deliver({ url, secret: "whsec_x" }, event, "production");
      expect(result).toMatchObject({
        status: "failed",
        statusCode: null,
        error: expect.stringMatching(/^not sent/),
      });
    }
    expect(await receivedAt(hook.path)).toEqual([]);
  });
});
