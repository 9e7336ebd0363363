import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliveriesOf } from "../../src/features/event-stream/event-stream.repo";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { sweepStatements } from "../../src/jobs/sweep-events";
import { claimStatements } from "../../src/webhooks/dispatch";
import { call, db } from "./helpers";
import { expectFairSweep, expectIndexed, planOf } from "./query-plan";
import { endpoint, inboxWithWebhooks, openTicket, streamOf } from "./webhook-helpers";

const ageEvents = (accountId: string, createdAt: number, dispatched: boolean) =>
  env.DB_2.prepare("UPDATE events SET created_at = ?, dispatched_at = ? WHERE account_id = ?")
    .bind(createdAt, dispatched ? createdAt : null, accountId)
    .run();

describe("event stream retention", () => {
  it("keeps events and their deliveries as long as the account keeps request logs", async () => {
    const hook = endpoint();
    const short = await inboxWithWebhooks([{ url: hook.url, events: ["ticket.created"] }]);
    await call("PATCH", `/v1/accounts/${short.ws.accountId}`, {
      token: short.ws.token,
      body: { request_log_retention: "5m" },
    });
    const long = await inboxWithWebhooks([]);
    const waiting = await inboxWithWebhooks([]);
    await call("PATCH", `/v1/accounts/${waiting.ws.accountId}`, {
      token: waiting.ws.token,
      body: { request_log_retention: "5m" },
    });
    await openTicket(short.ws.token, short.inbox.id);
    await openTicket(long.ws.token, long.inbox.id);
    await openTicket(waiting.ws.token, waiting.inbox.id);
    const now = Date.now();
    await ageEvents(short.ws.accountId, now - 6 * 60_000, true);
    await ageEvents(long.ws.accountId, now - 6 * 60_000, true);
    // Never dispatched: kept until its one attempt, whatever its age.
    await ageEvents(waiting.ws.accountId, now - 6 * 60_000, false);

    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: CRON.everyMinute, scheduledTime: now }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);

    expect(await streamOf(short.ws)).toEqual([]);
    const orphans = await env.DB_2.prepare(
      "SELECT count(*) AS n FROM webhook_deliveries WHERE event_id NOT IN (SELECT id FROM events)",
    ).first<{ n: number }>();
    expect(orphans?.n).toBe(0);
    expect(await streamOf(long.ws)).toHaveLength(1);
    expect((await streamOf(waiting.ws)).map((e) => e.dispatched_at)).toEqual([expect.any(String)]);
  });
});

describe("dispatch queries", () => {
  it("claim deliveries and read events through indexes", async () => {
    const [claim, mark, read] = claimStatements(["evt_A", "evt_B"], Date.now());
    for (const [statement, table] of [
      [claim, "webhook_deliveries"],
      [mark, "events"],
      [read, "events"],
    ] as const) {
      if (!statement) throw new Error("missing statement");
      expectIndexed(await planOf(statement), table);
    }
  });

  it("sweep and list deliveries through indexes", async () => {
    const [untaken, lost] = sweepStatements(Date.now());
    if (!untaken || !lost) throw new Error("missing statement");
    expectFairSweep(await planOf(untaken), "events", "account_id", "events_undispatched_by_account");
    expectIndexed(await planOf(lost), "webhook_deliveries");
    expectIndexed(await planOf(deliveriesOf(db(), ["evt_A"])), "webhook_deliveries");
  });
});
