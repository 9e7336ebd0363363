import { describe, expect, it } from "vitest";
import { type BounceKind, recordBounce } from "../../src/features/suppressions/bounces";
import { deleteExpiredBounces } from "../../src/jobs/prune-bounces";
import { keptFrom } from "../../src/lib/email-retention";
import type { PlanName } from "../../src/lib/plans";
import { db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { DAY, expectRangePerWorkspace, idsOf, keepEmailDays, runMinuteCron } from "./retention-helpers";

async function workspace(plan: PlanName, days: number | null) {
  const ws = await seedWorkspace({ plan });
  await keepEmailDays(ws.accountId, days);
  return ws;
}

/** Records a bounce as a report would at `at`; answers whether the address is suppressed now. */
const bounce = (accountId: string, email: string, kind: BounceKind, at: number) =>
  recordBounce(db(), { accountId, email, kind, emailId: null, detail: null }, at);

const bouncesOf = (accountId: string) =>
  idsOf(
    "SELECT email || ' ' || kind || ' ' || created_at AS id FROM bounces WHERE account_id = ?",
    accountId,
  );
const suppressedOf = (accountId: string) =>
  idsOf("SELECT email AS id FROM suppressions WHERE account_id = ?", accountId);

describe("bounce retention", () => {
  it("the minute cron deletes bounces past the email history and the 7-day soft-bounce window; suppressions stay", async () => {
    const now = Date.now();
    const free = await workspace("free", null);
    const freeStart = keptFrom(now, 30);
    await bounce(free.accountId, "hard@example.com", "hard", freeStart - 1);
    await bounce(free.accountId, "complaint@example.com", "complaint", freeStart - 1);
    await bounce(free.accountId, "soft@example.com", "soft", freeStart);
    await bounce(free.accountId, "recent@example.com", "soft", now - 8 * DAY);
    // Keeping one day of email: the soft-bounce rule still reads 7 days of bounces.
    const short = await workspace("enterprise", 1);
    await bounce(short.accountId, "old@example.com", "soft", now - 7 * DAY - 60_000);
    await bounce(short.accountId, "week@example.com", "soft", now - 5 * DAY);
    await bounce(short.accountId, "week@example.com", "soft", now - 3 * DAY);

    await runMinuteCron(now);

    expect(await bouncesOf(free.accountId)).toEqual([
      `recent@example.com soft ${now - 8 * DAY}`,
      `soft@example.com soft ${freeStart}`,
    ]);
    expect(await suppressedOf(free.accountId)).toEqual(["complaint@example.com", "hard@example.com"]);
    expect(await bouncesOf(short.accountId)).toEqual([
      `week@example.com soft ${now - 5 * DAY}`,
      `week@example.com soft ${now - 3 * DAY}`,
    ]);
    // The two kept soft bounces and a third within 7 days suppress; the pruned one counted nothing.
    expect(await bounce(short.accountId, "week@example.com", "soft", now)).toBe(true);
    expect(await bounce(short.accountId, "old@example.com", "soft", now)).toBe(false);
  });

  it("finds each workspace's old bounces through bounces_account_created", async () => {
    const plan = await planOf(deleteExpiredBounces(Date.now(), 5_000));
    expectIndexed(plan, "bounces");
    expectRangePerWorkspace(plan, "bounces_account_created", "account_id=? AND created_at<?");
  });
});
