import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmailEvents } from "../../src/webhooks/email-delivery";
import type { EmailDeliveryJob } from "../../src/webhooks/email-delivery-job";
import { attemptEmailDeliveries, EVENTS_PER_SENDER } from "../../src/webhooks/email-sender-run";
import { commitEvents, createEndpoint, sweepAt } from "./email-webhooks-helpers";
import { db, seedWorkspace, shardEnv } from "./helpers";
import { awaitDeliveries, endpoint } from "./webhook-helpers";

const sent = (i: number, at: number) => ({
  name: "email.sent" as const,
  data: { email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR", recipient: `r${i}@example.com` },
  at,
});

/** Far ahead of the minute crons other files run on the shared database, so only this test claims its rows. */
const ahead = () => Date.now() + 200 * 86_400_000;

const outboxOf = (endpointId: string) =>
  env.DB_2.prepare("SELECT state, attempts, next_attempt_at FROM email_webhook_outbox WHERE endpoint_id = ?")
    .bind(endpointId)
    .all<{ state: string; attempts: number; next_attempt_at: number | null }>()
    .then((r) => r.results);

const noFallback = () => {
  throw new Error("every launch here succeeds");
};

describe("email event webhooks: fan-out of an announcement", { timeout: 60_000 }, () => {
  it("launches one sender per fifty events of one endpoint, and each event arrives once", async () => {
    const ws = await seedWorkspace();
    const [a, b] = [endpoint(), endpoint()];
    const first = await createEndpoint(ws.token, { url: a.url, events: ["email.sent"] });
    await createEndpoint(ws.token, { url: b.url, events: ["email.sent"] });
    const t0 = ahead();
    const count = 2 * EVENTS_PER_SENDER + 20;
    const eventIds = await commitEvents(
      ws.accountId,
      Array.from({ length: count }, (_, i) => sent(i, t0)),
      t0,
    );

    const launched: EmailDeliveryJob[][] = [];
    const launch = (jobs: EmailDeliveryJob[]) => {
      launched.push(jobs);
      return attemptEmailDeliveries(db(), shardEnv(), jobs);
    };
    expect(await deliverEmailEvents(db(), shardEnv(), eventIds, t0, launch, noFallback)).toBe(2 * count);

    // Six launches for 240 attempts, where one per attempt took 240 invocations and connections.
    expect(launched.map((jobs) => jobs.length).sort((x, y) => x - y)).toEqual([20, 20, 50, 50, 50, 50]);
    for (const jobs of launched) expect(new Set(jobs.map((job) => job.endpointId)).size).toBe(1);
    for (const hook of [a, b]) {
      const got = await awaitDeliveries(hook.path, count);
      expect(new Set(got.map((r) => r.headers["x-webhook-id"])).size).toBe(count);
      expect(got).toHaveLength(count);
    }
    expect((await outboxOf(first.id)).every((row) => row.state === "succeeded" && row.attempts === 1)).toBe(
      true,
    );
  });

  it("hands what a sender had no time to start to a fresh one, or back to the sweep, uncounted", async () => {
    const ws = await seedWorkspace();
    const [kept, released] = [endpoint(), endpoint()];
    const first = await createEndpoint(ws.token, { url: kept.url, events: ["email.sent"] });
    const t0 = ahead();
    const eight = Array.from({ length: 8 }, (_, i) => sent(i, t0));
    // Out of time from the start: the first five requests go out all the same, so a sender always
    // gets something done; the other three are handed on to a sender of their own.
    const handed: EmailDeliveryJob[][] = [];
    const handOn = async (rest: EmailDeliveryJob[]) => {
      handed.push(rest);
      await attemptEmailDeliveries(db(), shardEnv(), rest, { budgetMs: 0 });
    };
    const outOfTime = (jobs: EmailDeliveryJob[]) =>
      attemptEmailDeliveries(db(), shardEnv(), jobs, { budgetMs: 0, handOn });
    const ids = await commitEvents(ws.accountId, eight, t0);
    expect(await deliverEmailEvents(db(), shardEnv(), ids, t0, outOfTime, noFallback)).toBe(8);
    expect(handed.map((jobs) => jobs.length)).toEqual([3]);
    expect(await awaitDeliveries(kept.path, 8)).toHaveLength(8);
    expect((await outboxOf(first.id)).every((row) => row.state === "succeeded" && row.attempts === 1)).toBe(
      true,
    );

    // With nobody to hand them to, the three go back to pending, their attempt uncounted, due at once.
    await env.DB_2.prepare("DELETE FROM webhook_endpoints WHERE id = ?").bind(first.id).run();
    const second = await createEndpoint(ws.token, { url: released.url, events: ["email.sent"] });
    const t1 = t0 + 1_000;
    const more = await commitEvents(
      ws.accountId,
      Array.from({ length: 8 }, (_, i) => sent(i, t1)),
      t1,
    );
    const alone = (jobs: EmailDeliveryJob[]) =>
      attemptEmailDeliveries(db(), shardEnv(), jobs, { budgetMs: 0 });
    expect(await deliverEmailEvents(db(), shardEnv(), more, t1, alone, noFallback)).toBe(8);
    expect(await awaitDeliveries(released.path, 5)).toHaveLength(5);
    const rows = await outboxOf(second.id);
    expect(rows.filter((row) => row.state === "succeeded" && row.attempts === 1)).toHaveLength(5);
    expect(rows.filter((row) => row.state === "pending")).toEqual(
      Array.from({ length: 3 }, () => ({ state: "pending", attempts: 0, next_attempt_at: t1 })),
    );

    await sweepAt(t1);
    expect(await awaitDeliveries(released.path, 8)).toHaveLength(8);
    expect((await outboxOf(second.id)).every((row) => row.state === "succeeded" && row.attempts === 1)).toBe(
      true,
    );
  });

  it("two runs handed one claim (a launch that failed after its sender started, and the fallback) attempt it once", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    const ids = await commitEvents(ws.accountId, [sent(1, t0), sent(2, t0)], t0);
    const both = async (jobs: EmailDeliveryJob[]) => {
      await Promise.all([
        attemptEmailDeliveries(db(), shardEnv(), jobs),
        attemptEmailDeliveries(db(), shardEnv(), jobs),
      ]);
    };
    expect(await deliverEmailEvents(db(), shardEnv(), ids, t0, both, noFallback)).toBe(2);
    expect(await awaitDeliveries(hook.path, 2)).toHaveLength(2);
    expect(await outboxOf(created.id)).toEqual([
      { state: "succeeded", attempts: 1, next_attempt_at: null },
      { state: "succeeded", attempts: 1, next_attempt_at: null },
    ]);
  });

  it("attempts nothing whose claim lapsed and the sweep took meanwhile: the receiver sees it once", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    const ids = await commitEvents(ws.accountId, [sent(1, t0)], t0);
    // Claimed, then its sender is slow to start: past the minute's lease the sweep takes the row.
    const late: EmailDeliveryJob[][] = [];
    const slow = async (jobs: EmailDeliveryJob[]) => {
      late.push(jobs);
    };
    expect(await deliverEmailEvents(db(), shardEnv(), ids, t0, slow, noFallback)).toBe(1);
    await sweepAt(t0 + 61_000);
    expect(await awaitDeliveries(hook.path, 1)).toHaveLength(1);

    await attemptEmailDeliveries(db(), shardEnv(), late.flat());
    expect(await awaitDeliveries(hook.path, 1)).toHaveLength(1);
    expect(await outboxOf(created.id)).toEqual([{ state: "succeeded", attempts: 2, next_attempt_at: null }]);
  });
});
