import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createConnection } from "../../src/features/connections/connections.service";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { callJson, db, eventually, seedWorkspace, shardD1Of } from "./helpers";
import { awaitDeliveries, endpoint, openTicket } from "./webhook-helpers";

/**
 * The send queue's consumer, the minute cron and the webhook dispatch queue with its sender,
 * through the Worker's own handlers, given work of a workspace on each shard at once: each email
 * and event is found, handled and recorded in its workspace's shard alone (the consumers ask the
 * directory for their batch's workspaces, the cron runs per shard, the sender opens the shard its
 * launcher names).
 */

/** A workspace on `shard` that may send from a domain of its own. */
async function sender(shard: string) {
  const ws = await seedWorkspace({ shard });
  const domain = `route-${crypto.randomUUID().slice(0, 8)}.test`;
  const connection = await createConnection(db(shard), env, ws.accountId, domain);
  await shardD1Of(shard)
    .prepare("UPDATE connections SET status = 'verified', verified_at = ? WHERE id = ?")
    .bind(Date.now(), connection.id)
    .run();
  return { ...ws, shard, domain };
}

type Sender = Awaited<ReturnType<typeof sender>>;

/** An email accepted through the API, scheduled an hour ahead (so no queue message carries it yet), then due. */
async function dueEmail(ws: Sender) {
  const { status, body } = await callJson<{ id: string }>("POST", "/v1/emails", {
    token: ws.token,
    body: {
      from: `a@${ws.domain}`,
      to: "ada@example.com",
      subject: "Routed",
      text: "Hello",
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(status).toBe(200);
  await shardD1Of(ws.shard)
    .prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, body.id)
    .run();
  return body.id;
}

const statusIn = async (shard: string, id: string) =>
  (
    await shardD1Of(shard)
      .prepare("SELECT status FROM emails WHERE id = ?")
      .bind(id)
      .first<{ status: string }>()
  )?.status ?? null;

const sentCount = async (shard: string, id: string) =>
  (
    await shardD1Of(shard)
      .prepare(
        "SELECT count(*) AS n FROM email_events v JOIN emails e ON e.seq = v.email_seq WHERE e.id = ? AND v.type = 'sent'",
      )
      .bind(id)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("sending for workspaces on both shards", { timeout: 60_000 }, () => {
  it("one send-queue batch carrying emails of a workspace on each shard sends each from its own shard, once", async () => {
    const [first, second] = [await sender("DB"), await sender("DB_2")];
    const [a, b] = [await dueEmail(first), await dueEmail(second)];
    // Neither shard holds the other's email.
    expect(await statusIn("DB_2", a)).toBeNull();
    expect(await statusIn("DB", b)).toBeNull();

    const message = (id: string, emailId: string, accountId: string) => ({
      id,
      timestamp: new Date(),
      attempts: 1,
      body: { emailId, accountId },
    });
    const batch = createMessageBatch("email-send", [
      message("m1", a, first.accountId),
      message("m2", b, second.accountId),
      // A redelivery of one of them in the same batch sends nobody twice.
      message("m3", b, second.accountId),
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    await waitOnExecutionContext(ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2", "m3"]);

    expect(await statusIn("DB", a)).toBe("sent");
    expect(await statusIn("DB_2", b)).toBe("sent");
    expect([await sentCount("DB", a), await sentCount("DB_2", b)]).toEqual([1, 1]);
    expect(await statusIn("DB_2", a)).toBeNull();
    expect(await statusIn("DB", b)).toBeNull();
  });

  it("the minute cron sends the due emails of both shards", async () => {
    const [first, second] = [await sender("DB"), await sender("DB_2")];
    const [a, b] = [await dueEmail(first), await dueEmail(second)];
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: CRON.everyMinute, scheduledTime: Date.now() }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    // The sweep hands each to the send queue, naming its workspace; the consumer sends it.
    await eventually(
      async () => (await statusIn("DB", a)) === "sent" && (await statusIn("DB_2", b)) === "sent",
    );
    expect([await sentCount("DB", a), await sentCount("DB_2", b)]).toEqual([1, 1]);
  });
});

/** An inbox of `ws` (on its domain) whose webhook tells `url` of new tickets. */
async function inboxTelling(ws: Sender, url: string) {
  const { status, body } = await callJson<{ id: string }>("POST", "/v1/inboxes", {
    token: ws.token,
    body: {
      name: "Support",
      email_address: `support@${ws.domain}`,
      webhooks: [{ url, events: ["ticket.created"], enabled: true }],
    },
  });
  expect(status).toBe(201);
  return body.id;
}

const deliveryStatusesIn = async (shard: string, accountId: string) =>
  (
    await shardD1Of(shard)
      .prepare(
        "SELECT d.status FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.account_id = ?",
      )
      .bind(accountId)
      .all<{ status: string }>()
  ).results.map((r) => r.status);

describe("webhooks for workspaces on both shards", { timeout: 60_000 }, () => {
  it("the dispatch queue and the sender deliver each workspace's event from its own shard, once", async () => {
    const [first, second] = [await sender("DB"), await sender("DB_2")];
    const [hookA, hookB] = [endpoint(), endpoint()];
    const [inboxA, inboxB] = [await inboxTelling(first, hookA.url), await inboxTelling(second, hookB.url)];
    const [ticketA, ticketB] = await Promise.all([
      openTicket(first.token, inboxA, "On the first shard"),
      openTicket(second.token, inboxB, "On the second shard"),
    ]);
    const [[a], [b]] = await Promise.all([awaitDeliveries(hookA.path, 1), awaitDeliveries(hookB.path, 1)]);
    expect(JSON.parse(a?.body ?? "{}").data.ticket.id).toBe(ticketA.id);
    expect(JSON.parse(b?.body ?? "{}").data.ticket.id).toBe(ticketB.id);
    // Each attempt was recorded where its event is, and nothing of either in the other shard.
    await eventually(
      async () =>
        (await deliveryStatusesIn("DB", first.accountId)).join() === "succeeded" &&
        (await deliveryStatusesIn("DB_2", second.accountId)).join() === "succeeded",
    );
    expect(await deliveryStatusesIn("DB_2", first.accountId)).toEqual([]);
    expect(await deliveryStatusesIn("DB", second.accountId)).toEqual([]);
  });
});
