import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  attemptEmailDeliveries,
  deliverEmailEvents,
  type EmailDeliveryJob,
  EVENTS_PER_SENDER,
} from "../../src/webhooks/email-delivery";
import { commitEvents, createEndpoint, sweepAt } from "./email-webhooks-helpers";
import { db, seedWorkspace } from "./helpers";
import { awaitDeliveries, endpoint, receivedAt } from "./webhook-helpers";

const sent = (i: number, at: number) => ({
  name: "email.sent" as const,
  data: { email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR", recipient: `r${i}@example.com` },
  at,
});

/** Far ahead of the minute crons other files run on the shared database, so only this test claims its rows. */
const ahead = () => Date.now() + 200 * 86_400_000;

const outboxOf = (endpointId: string) =>
  env.DB.prepare("SELECT state, attempts, next_attempt_at FROM email_webhook_outbox WHERE endpoint_id = ?")
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
      return attemptEmailDeliveries(db(), env, jobs);
    };
    expect(await deliverEmailEvents(db(), env, eventIds, t0, launch, noFallback)).toBe(2 * count);

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

  it("hands back the events a sender had no time to start, uncounted, for the sweep", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const t0 = ahead();
    const eventIds = await commitEvents(ws.accountId, [sent(1, t0), sent(2, t0), sent(3, t0)], t0);

    // Out of time from the start: nothing goes out, every claim is released.
    const outOfTime = (jobs: EmailDeliveryJob[]) => attemptEmailDeliveries(db(), env, jobs, 0);
    expect(await deliverEmailEvents(db(), env, eventIds, t0, outOfTime, noFallback)).toBe(3);
    expect(await outboxOf(created.id)).toEqual(
      Array.from({ length: 3 }, () => ({ state: "pending", attempts: 0, next_attempt_at: t0 })),
    );
    expect(await receivedAt(hook.path)).toHaveLength(0);

    await sweepAt(t0);
    expect(await awaitDeliveries(hook.path, 3)).toHaveLength(3);
    expect(await outboxOf(created.id)).toEqual(
      Array.from({ length: 3 }, () => ({ state: "succeeded", attempts: 1, next_attempt_at: null })),
    );
  });
});
