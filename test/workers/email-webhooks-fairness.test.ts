import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dueRowsStatement, MAX_ROWS_PER_SWEEP } from "../../src/webhooks/email-delivery";
import { commitEvents, createEndpoint, sweepAt } from "./email-webhooks-helpers";
import { db, seedWorkspace } from "./helpers";
import { expectFairSweep, planOf } from "./query-plan";
import { awaitDeliveries, endpoint } from "./webhook-helpers";

/**
 * Ahead of the minute crons (at most an hour ahead). Sweeps of other files run further ahead may
 * take these rows too; a fair sweep, theirs or this one, takes the quiet row first time all the
 * same, so the assertions below hold whoever swept.
 */
const ahead = () => Date.now() + 30 * 86_400_000;

const sent = (i: number) => ({
  name: "email.sent" as const,
  data: { email_id: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR", recipient: `r${i}@example.com` },
});

const attemptsOf = (eventId: string) =>
  env.DB_2.prepare("SELECT attempts FROM email_webhook_outbox WHERE event_id = ?")
    .bind(eventId)
    .first<{ attempts: number }>()
    .then((row) => row?.attempts ?? 0);

const untried = (endpointId: string) =>
  env.DB_2.prepare("SELECT count(*) AS n FROM email_webhook_outbox WHERE endpoint_id = ? AND attempts = 0")
    .bind(endpointId)
    .first<{ n: number }>()
    .then((row) => row?.n ?? 0);

describe("email event webhooks: a fair sweep", { timeout: 90_000 }, () => {
  it("attempts another workspace's one due row in the first sweep behind a backlog far past the budget", async () => {
    const loud = await seedWorkspace();
    const failing = endpoint("fail");
    const backlogged = await createEndpoint(loud.token, { url: failing.url, events: ["email.sent"] });
    const quiet = await seedWorkspace();
    const hook = endpoint();
    await createEndpoint(quiet.token, { url: hook.url, events: ["email.sent"] });

    const t0 = ahead();
    const backlog = 3 * MAX_ROWS_PER_SWEEP;
    // The backlog is due first: a sweep taking the oldest due rows would take only these.
    await commitEvents(
      loud.accountId,
      Array.from({ length: backlog }, (_, i) => sent(i)),
      t0 - 600_000,
    );
    const [eventId] = await commitEvents(quiet.accountId, [sent(0)], t0 - 60_000);
    if (!eventId) throw new Error("no event committed");

    await sweepAt(t0);
    // Claimed and attempted by the first sweep, not after the backlog's 1,500 rows.
    expect(await attemptsOf(eventId)).toBe(1);
    const arrived = await awaitDeliveries(hook.path, 1);
    expect(arrived.map((r) => r.headers["x-webhook-id"])).toEqual([eventId]);
    // The backlog got a share, and the rest waits for the next sweeps.
    expect(await untried(backlogged.id)).toBeGreaterThan(0);
    expect(await untried(backlogged.id)).toBeLessThan(backlog);

    // The backlog's endpoint goes, with its rows, so no later sweep elsewhere sends them.
    await env.DB_2.prepare("DELETE FROM webhook_endpoints WHERE id = ?").bind(backlogged.id).run();
  });

  it("shares the budget between three endpoints as whole rows (500 / 3 is no LIMIT)", async () => {
    const t0 = ahead() + 86_400_000;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ws = await seedWorkspace();
      await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
      ids.push(...(await commitEvents(ws.accountId, [sent(i)], t0 - 60_000)));
    }
    // The statement itself, as the sweep runs it: at least these three endpoints have due rows.
    const due = await db()
      .all<{ id: number }>(dueRowsStatement(t0))
      .then((rows) => rows.map((row) => row.id));
    expect(due.length).toBeGreaterThanOrEqual(3);
    await sweepAt(t0);
    for (const id of ids) expect(await attemptsOf(id)).toBe(1);
  });

  it("finds the due rows endpoint by endpoint through indexes, never scanning the outbox", async () => {
    expectFairSweep(
      await planOf(dueRowsStatement(Date.now())),
      "email_webhook_outbox",
      "endpoint_id",
      "email_webhook_outbox_open_by_endpoint",
    );
  });
});
