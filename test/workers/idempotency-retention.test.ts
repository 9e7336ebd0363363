import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteExpiredIdempotencyKeys } from "../../src/jobs/prune-idempotency-keys";
import { IDEMPOTENCY_TTL_MS } from "../../src/lib/idempotency";
import { seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { runMinuteCron } from "./retention-helpers";

/** `count` stored answers of one workspace, created at `createdAt`, in one statement. */
const storeKeys = (accountId: string, prefix: string, count: number, createdAt: number) =>
  env.DB_2.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
     INSERT INTO idempotency_keys (account_id, key, request_hash, response_status, response_body, created_at)
     SELECT ?1, ?2 || i, 'hash', 201, '{}', ?4 FROM n`,
  )
    .bind(accountId, prefix, count, createdAt)
    .run();

const keysOf = async (accountId: string, prefix: string) =>
  (
    await env.DB_2.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ? AND key LIKE ?")
      .bind(accountId, `${prefix}%`)
      .first<{ n: number }>()
  )?.n;

describe("idempotency key retention", () => {
  it("the minute cron drops keys past 24 hours in bounded batches, the rest at the next run, and keeps younger ones", async () => {
    const ws = await seedWorkspace();
    const now = Date.now();
    // More than one run deletes (20 batches of 5,000): a day's backlog after the cron stood still.
    await storeKeys(ws.accountId, "old-", 101_000, now - IDEMPOTENCY_TTL_MS - 60_000);
    await storeKeys(ws.accountId, "young-", 3, now - IDEMPOTENCY_TTL_MS + 60_000);

    await runMinuteCron(now);
    expect(await keysOf(ws.accountId, "old-")).toBe(1_000);
    expect(await keysOf(ws.accountId, "young-")).toBe(3);

    await runMinuteCron(now + 60_000);
    expect(await keysOf(ws.accountId, "old-")).toBe(0);
    expect(await keysOf(ws.accountId, "young-")).toBe(3);
  });

  it("finds the expired keys through idempotency_keys_created", async () => {
    const plan = await planOf(deleteExpiredIdempotencyKeys(Date.now(), 5_000));
    expectIndexed(plan, "idempotency_keys");
    expect(plan.join("\n")).toContain("idempotency_keys_created (created_at<?)");
  });
});
