import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteExpiredEnrollments } from "../../src/jobs/prune-automation-history";
import { keptFrom } from "../../src/lib/email-retention";
import { newId } from "../../src/lib/ids";
import type { PlanName } from "../../src/lib/plans";
import { createAutomation } from "./automations-api-helpers";
import { seedCustomer } from "./automations-helpers";
import { call, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { DAY, expectRangePerWorkspace, idsOf, keepEmailDays, runMinuteCron } from "./retention-helpers";

type Status = "active" | "completed" | "failed" | "cancelled";

/** A workspace on `plan` keeping `days` of email (null: the plan's maximum), with an automation and a customer. */
async function automationOf(plan: PlanName, days: number | null) {
  const ws = await seedWorkspace({ plan });
  await keepEmailDays(ws.accountId, days);
  const automation = await createAutomation(ws.token);
  const customer = await seedCustomer(ws.accountId);
  return { ws, automation, customer };
}

/** An enrolment as the engine leaves it, with two steps of history; finished at `finishedAt` unless active. */
async function enrollment(
  of: Awaited<ReturnType<typeof automationOf>>,
  status: Status,
  finishedAt: number | null,
  createdAt = (finishedAt ?? Date.now()) - DAY,
) {
  const id = newId("enr");
  await env.DB_2.batch([
    env.DB_2.prepare(
      `INSERT INTO automation_enrollments (id, account_id, automation_id, customer_id, status, current_step,
        trigger_type, created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, 'api', ?, ?, ?)`,
    ).bind(
      id,
      of.ws.accountId,
      of.automation.id,
      of.customer.id,
      status,
      status === "active" ? "stp_2" : null,
      createdAt,
      finishedAt ?? createdAt,
      finishedAt,
    ),
    ...["stp_1", "stp_2"].map((step, i) =>
      env.DB_2.prepare(
        `INSERT INTO enrollment_steps (enrollment_id, step_id, account_id, step_type, status, detail, started_at, finished_at)
         VALUES (?, ?, ?, 'wait', 'succeeded', '{}', ?, ?)`,
      ).bind(id, step, of.ws.accountId, createdAt + i, createdAt + i),
    ),
  ]);
  return id;
}

const enrollmentsLeft = (accountId: string) =>
  idsOf("SELECT id FROM automation_enrollments WHERE account_id = ?", accountId);
const historyLeft = (accountId: string) =>
  idsOf("SELECT DISTINCT enrollment_id AS id FROM enrollment_steps WHERE account_id = ?", accountId);

describe("automation history retention", () => {
  it("the minute cron deletes finished enrolments past the workspace's email history with their steps, and keeps the rest", async () => {
    const now = Date.now();
    // Free: 30 days, the plan's maximum.
    const free = await automationOf("free", null);
    const freeStart = keptFrom(now, 30);
    const freeGone = [
      await enrollment(free, "completed", freeStart - 1),
      await enrollment(free, "failed", freeStart - 1),
      await enrollment(free, "cancelled", freeStart - 1),
    ];
    const freeKept = [
      await enrollment(free, "completed", freeStart),
      // Active, however old: its run reads which steps it reached.
      await enrollment(free, "active", null, now - 500 * DAY),
    ];
    // Enterprise keeping 3 days of email.
    const short = await automationOf("enterprise", 3);
    const shortStart = keptFrom(now, 3);
    const shortGone = await enrollment(short, "completed", shortStart - 1);
    const shortKept = await enrollment(short, "cancelled", shortStart + 3_600_000);
    // Pro once chose 200 days: its plan keeps 90 at most.
    const capped = await automationOf("pro", 200);
    const cappedGone = await enrollment(capped, "completed", now - 100 * DAY);
    // Enterprise's 400 days.
    const long = await automationOf("enterprise", null);
    const longKept = await enrollment(long, "completed", now - 300 * DAY);

    await runMinuteCron(now);

    expect(await enrollmentsLeft(free.ws.accountId)).toEqual([...freeKept].sort());
    expect(await historyLeft(free.ws.accountId)).toEqual([...freeKept].sort());
    expect(await enrollmentsLeft(short.ws.accountId)).toEqual([shortKept]);
    expect(await historyLeft(short.ws.accountId)).toEqual([shortKept]);
    expect(await enrollmentsLeft(capped.ws.accountId)).toEqual([]);
    expect(await historyLeft(capped.ws.accountId)).toEqual([]);
    expect(await enrollmentsLeft(long.ws.accountId)).toEqual([longKept]);

    for (const id of freeGone)
      expect((await call("GET", `/v1/enrollments/${id}`, { token: free.ws.token })).status).toBe(404);
    expect((await call("GET", `/v1/enrollments/${cappedGone}`, { token: capped.ws.token })).status).toBe(404);
    expect((await call("GET", `/v1/enrollments/${shortGone}`, { token: short.ws.token })).status).toBe(404);
    const kept = await call("GET", `/v1/enrollments/${freeKept[0]}`, { token: free.ws.token });
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as { history: unknown[] }).history).toHaveLength(2);
    const listed = await call("GET", `/v1/automations/${free.automation.id}/enrollments`, {
      token: free.ws.token,
    });
    expect(((await listed.json()) as { count: number }).count).toBe(2);
  });

  it("finds the finished enrolments of each workspace through enrollments_account_finished", async () => {
    const plan = await planOf(deleteExpiredEnrollments(Date.now(), 5_000));
    expectIndexed(plan, "automation_enrollments");
    expectRangePerWorkspace(plan, "enrollments_account_finished", "account_id=? AND finished_at<?");
  });
});
