import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { updateTicket } from "../../src/features/tickets/ticket-update";
import worker from "../../src/index";
import { EMAIL_WEBHOOK_RETENTION_MS, pruneEmailWebhooks } from "../../src/jobs/prune-email-webhooks";
import { CRON } from "../../src/jobs/schedules";
import { deliverEmailEvents } from "../../src/webhooks/email-delivery";
import type { EmailDeliveryJob } from "../../src/webhooks/email-delivery-job";
import { DISABLE_AFTER_FAILING_MS } from "../../src/webhooks/email-events";
import { attemptEmailDeliveries } from "../../src/webhooks/email-sender-run";
import { commitEvents, createEndpoint, type EndpointBody, sweepAt } from "./email-webhooks-helpers";
import { call, callJson, db, eventually, seedWorkspace, sendingWorkspace, shardEnv } from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { setAccountStatus } from "./suspension-helpers";
import {
  awaitDeliveries,
  type Envelope,
  endpoint,
  inboxWithWebhooks,
  openTicket,
  receivedAt,
} from "./webhook-helpers";

/**
 * "Nothing leaves for it" for both kinds of webhook: what a suspended workspace's webhooks would
 * send holds (never attempted, no attempt counted, no endpoint disabled for it) and goes once the
 * workspace is reinstated. Every path is tried against the real loopback receiver.
 */

/** Far ahead of the minute crons other files run (at most an hour ahead), behind the 100/200-day files. */
const ahead = () => Date.now() + 50 * 86_400_000;

/** A moment for anything already on its way (a Queue consumer, an announcement) to arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));

async function runMinuteCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: CRON.everyMinute, scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const sent = (recipient: string) => ({
  name: "email.sent" as const,
  data: { email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR", recipient },
});

const outboxOf = (endpointId: string) =>
  env.DB_2.prepare("SELECT state, attempts FROM email_webhook_outbox WHERE endpoint_id = ? ORDER BY id")
    .bind(endpointId)
    .all<{ state: string; attempts: number }>()
    .then((r) => r.results);

const deliveryStatuses = (accountId: string) =>
  env.DB_2.prepare(
    `SELECT d.status FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
     WHERE e.account_id = ? ORDER BY d.id`,
  )
    .bind(accountId)
    .all<{ status: string }>()
    .then((r) => r.results.map((row) => row.status));

/** A ticket.updated event whose Queue send failed: recorded, never dispatched. */
async function eventWithoutQueue(ws: { accountId: string }, ticketId: string) {
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
    "SELECT id FROM events WHERE account_id = ? AND event = 'ticket.updated'",
  )
    .bind(ws.accountId)
    .first<{ id: string }>();
  if (!row) throw new Error("no event recorded");
  return row.id;
}

describe("a suspended workspace's inbox webhooks hold", { timeout: 60_000 }, () => {
  it("an event made while suspended (inbound mail) leaves neither by its Queue message nor the sweep; reinstated, it goes once", async () => {
    const hook = endpoint();
    const address = `support-${crypto.randomUUID().slice(0, 8)}@acme.test`;
    const { ws } = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.created"] }], {
      emailAddress: address,
    });
    await setAccountStatus(ws.accountId, "suspended");
    expect(await deliver(fill(FIXTURES.plainText, { TO: address }), { to: address })).toEqual({
      outcome: "accepted",
    });
    await eventually(async () => (await deliveryStatuses(ws.accountId)).length === 1);
    await settle();
    await runMinuteCron(Date.now() + 31_000);
    expect(await receivedAt(hook.path)).toEqual([]);
    expect(await deliveryStatuses(ws.accountId)).toEqual(["pending"]);

    await setAccountStatus(ws.accountId, "active");
    await runMinuteCron(Date.now() + 31_000);
    const requests = await awaitDeliveries(hook.path, 1);
    expect(requests.map((r) => r.headers["x-webhook-event"])).toEqual(["ticket.created"]);
    expect(await deliveryStatuses(ws.accountId)).toEqual(["succeeded"]);
  });

  it("a dispatch queued before the suspension sends nothing, and the event goes once reinstated", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.updated"] }]);
    const ticket = await openTicket(ws.token, inbox.id);
    const eventId = await eventWithoutQueue(ws, ticket.id);
    await setAccountStatus(ws.accountId, "suspended");

    const batch = createMessageBatch("webhook-dispatch", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { eventId, accountId: ws.accountId } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    await waitOnExecutionContext(ctx);
    // Acked: nothing to retry, the event waits for the sweep rather than the Queue.
    expect((await getQueueResult(batch, ctx)).retryBatch.retry).toBe(false);
    await runMinuteCron(Date.now() + 31_000);
    await settle();
    expect(await receivedAt(hook.path)).toEqual([]);
    expect(await deliveryStatuses(ws.accountId)).toEqual(["pending"]);

    await setAccountStatus(ws.accountId, "active");
    await runMinuteCron(Date.now() + 31_000);
    const [request] = await awaitDeliveries(hook.path, 1);
    expect(request?.headers["x-webhook-id"]).toBe(eventId);
  });
});

describe("a suspended workspace's email event webhooks hold", { timeout: 60_000 }, () => {
  it("a pending retry is not attempted, not counted and disables nothing; reinstated, the sweep sends it", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint("flaky");
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    await commitEvents(ws.accountId, [sent("ada@example.com")], t0);
    await sweepAt(t0);
    expect(await outboxOf(created.id)).toEqual([{ state: "pending", attempts: 1 }]);

    await setAccountStatus(ws.accountId, "suspended");
    // Due for its retry, and much later: past the streak that would disable a failing endpoint.
    const late = t0 + DISABLE_AFTER_FAILING_MS + 3_600_000;
    await sweepAt(t0 + 60_000);
    await sweepAt(late);
    await settle();
    expect(await receivedAt(hook.path)).toHaveLength(1);
    expect(await outboxOf(created.id)).toEqual([{ state: "pending", attempts: 1 }]);

    await setAccountStatus(ws.accountId, "active");
    await sweepAt(late);
    expect(await awaitDeliveries(hook.path, 2)).toHaveLength(2);
    expect(await outboxOf(created.id)).toEqual([{ state: "succeeded", attempts: 2 }]);
    const endpointNow = await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, {
      token: ws.token,
    });
    expect(endpointNow.body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it("an event written while suspended and never announced is left by the minute cron; reinstated, it goes", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    await setAccountStatus(ws.accountId, "suspended");
    const t0 = Date.now();
    const [eventId] = await commitEvents(ws.accountId, [sent("ada@example.com")], t0);
    await runMinuteCron(t0 + 60_000);
    await settle();
    expect(await receivedAt(hook.path)).toEqual([]);
    expect(await outboxOf(created.id)).toEqual([{ state: "pending", attempts: 0 }]);

    await setAccountStatus(ws.accountId, "active");
    await runMinuteCron(t0 + 60_000);
    const [request] = await awaitDeliveries(hook.path, 1);
    expect(request?.headers["x-webhook-id"]).toBe(eventId);
  });

  it("a claimed run whose sender starts after the suspension sends nothing and gives its rows back uncounted", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    const ids = await commitEvents(ws.accountId, [sent("a@example.com"), sent("b@example.com")], t0);
    // Claimed while active; the sender it was handed to starts only after the suspension.
    const handed: EmailDeliveryJob[][] = [];
    const later = async (jobs: EmailDeliveryJob[]) => {
      handed.push(jobs);
    };
    const noFallback = () => {
      throw new Error("the launch succeeds");
    };
    expect(await deliverEmailEvents(db(), shardEnv(), ids, t0, later, noFallback)).toBe(2);
    await setAccountStatus(ws.accountId, "suspended");
    await attemptEmailDeliveries(db(), shardEnv(), handed.flat());
    await settle();
    expect(await receivedAt(hook.path)).toEqual([]);
    expect(await outboxOf(created.id)).toEqual([
      { state: "pending", attempts: 0 },
      { state: "pending", attempts: 0 },
    ]);

    await setAccountStatus(ws.accountId, "active");
    await sweepAt(t0);
    expect(await awaitDeliveries(hook.path, 2)).toHaveLength(2);
    expect(await outboxOf(created.id)).toEqual([
      { state: "succeeded", attempts: 1 },
      { state: "succeeded", attempts: 1 },
    ]);
  });

  it("a first open and a first click while suspended are recorded, not sent; reinstated, they go", async () => {
    const ws = await sendingWorkspace("whk-susp.test");
    const hook = endpoint();
    await createEndpoint(ws.token, {
      url: hook.url,
      events: ["email.sent", "email.opened", "email.clicked"],
    });
    const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "a@whk-susp.test",
        to: "b@example.com",
        subject: "Tracked",
        html: '<p><a href="https://shop.example/one">One</a></p>',
        track_opens: true,
        track_clicks: true,
      },
    });
    await awaitDeliveries(hook.path, 1);
    const raw = await (await call("GET", `/v1/emails/${body.id}/content`, { token: ws.token })).text();
    const html = (await PostalMime.parse(raw)).html ?? "";
    const pixel = new URL(/<img src="([^"]+)"/.exec(html)?.[1] ?? "");
    const link = new URL((/<a href="([^"]+)"/.exec(html)?.[1] ?? "").replaceAll("&amp;", "&"));

    await setAccountStatus(ws.accountId, "suspended");
    expect((await call("GET", pixel.pathname)).status).toBe(200);
    expect((await call("GET", `${link.pathname}${link.search}`)).status).toBe(302);
    const written = () =>
      env.DB_2.prepare(
        "SELECT count(*) AS n FROM email_webhook_outbox WHERE account_id = ? AND event IN ('email.opened', 'email.clicked')",
      )
        .bind(ws.accountId)
        .first<{ n: number }>();
    await eventually(async () => (await written())?.n === 2);
    await settle();
    await sweepAt(Date.now() + 60_000);
    expect((await receivedAt(hook.path)).map((r) => r.headers["x-webhook-event"])).toEqual(["email.sent"]);

    await setAccountStatus(ws.accountId, "active");
    await sweepAt(Date.now() + 60_000);
    const requests = await awaitDeliveries(hook.path, 3);
    expect(requests.map((r) => (JSON.parse(r.body) as Envelope).event).sort()).toEqual([
      "email.clicked",
      "email.opened",
      "email.sent",
    ]);
  });
});

describe("a suspended workspace's held email events", { timeout: 60_000 }, () => {
  it("do not stop the pruning of finished rows behind them, however many there are", async () => {
    const ws = await seedWorkspace();
    const created = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    await setAccountStatus(ws.accountId, "suspended");
    const old = Date.now() - EMAIL_WEBHOOK_RETENTION_MS - 86_400_000;
    // The oldest rows of the table (the lowest ids): a prune batch's worth held, then one expired.
    const held = 5_000;
    await env.DB_2.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO email_webhook_outbox
         (id, account_id, endpoint_id, event_id, event, body, state, attempts, next_attempt_at, created_at)
       SELECT -1000000 - ? + i, ?, ?, 'evt_held' || i, 'email.sent', '{}', 'pending', 0, ?, ? FROM n`,
    )
      .bind(held, held, ws.accountId, created.id, old, old)
      .run();
    await env.DB_2.prepare(
      `INSERT INTO email_webhook_outbox
         (id, account_id, endpoint_id, event_id, event, body, state, attempts, next_attempt_at, created_at)
       VALUES (-1000000 + 1, ?, ?, 'evt_over', 'email.sent', '{}', 'succeeded', 1, NULL, ?)`,
    )
      .bind(ws.accountId, created.id, old)
      .run();

    expect(await pruneEmailWebhooks(db(), Date.now())).toBeGreaterThanOrEqual(1);
    const left = await env.DB_2.prepare(
      "SELECT state, count(*) AS n FROM email_webhook_outbox WHERE endpoint_id = ? GROUP BY state",
    )
      .bind(created.id)
      .all<{ state: string; n: number }>();
    expect(left.results).toEqual([{ state: "pending", n: held }]);
    await env.DB_2.prepare("DELETE FROM webhook_endpoints WHERE id = ?").bind(created.id).run();
  });
});
