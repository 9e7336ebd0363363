import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { enrolGroupJoiners, type StepCause } from "../../src/features/automations/triggers";
import { activeAutomation, type Enrollment, enrollmentsOf, trigger, WAIT } from "./automations-api-helpers";
import { automationWorkspace, historyOf, seedCustomer } from "./automations-helpers";
import { callJson, db, eventually } from "./helpers";

type Workspace = Awaited<ReturnType<typeof automationWorkspace>>;

/** The bound the service applies (src/features/automations/loop-bound.ts), restated as the docs give it. */
const STEP_MADE_PER_DAY = 10;

async function createGroup(ws: Workspace, name: string) {
  const res = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
    token: ws.token,
    body: { name },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const join = (ws: Workspace, group: string, member: Record<string, string>) =>
  callJson<{ added: number }>("POST", `/v1/contact-groups/${group}/members`, {
    token: ws.token,
    body: { members: [member] },
  });

/** Every enrolment of the automation once `count` of them exist and all have ended (oldest first). */
const allEnded = (ws: Workspace, automationId: string, count: number, timeoutMs = 45_000) =>
  eventually(async () => {
    const page = await enrollmentsOf(ws.token, automationId, "?limit=100");
    const ended = page.body.data.filter((e: Enrollment) => e.status !== "active");
    if (page.body.count > count) throw new Error(`${page.body.count} enrolments, more than ${count}`);
    return page.body.count === count && ended.length === count ? page.body.data.reverse() : null;
  }, timeoutMs);

const refusalsOf = async (enrollmentId: string) => {
  const add = Object.values(await historyOf(enrollmentId)).find((h) => h.stepType === "add_to_group");
  return add?.detail.refused_enrollments as Array<{ automation_id: string; reason: string }> | undefined;
};

describe("automation cycles are bounded", { timeout: 90_000 }, () => {
  it("remove-then-add of a group_joined automation with re-entry stops at the bound, with the reason on the last enrolment", async () => {
    const ws = await automationWorkspace();
    const group = await createGroup(ws, "Cycling");
    const cycle = await activeAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: group },
      allow_reentry: true,
      steps: [
        { type: "remove_from_group", contact_group_id: group },
        { type: "add_to_group", contact_group_id: group },
      ],
    });
    expect((await join(ws, group, { email: "cycle@example.com" })).body).toMatchObject({ added: 1 });

    // The user's add enrols once; each enrolment's step re-adds and so enrols again, up to the bound.
    const runs = await allEnded(ws, cycle.id, 1 + STEP_MADE_PER_DAY);
    expect(runs.every((e) => e.status === "completed")).toBe(true);
    const last = runs.at(-1) as Enrollment;
    expect(await refusalsOf(last.id)).toEqual([
      {
        automation_id: cycle.id,
        reason: expect.stringMatching(/enrolled 10 times by automation steps in the last 24 hours/),
      },
    ]);
    for (const earlier of runs.slice(0, -1)) expect(await refusalsOf(earlier.id)).toBeUndefined();
    // Each step-made enrolment names the enrolment whose step made it.
    expect(runs[1]?.trigger_data).toEqual({ contact_group_id: group, caused_by_enrollment_id: runs[0]?.id });

    // Nothing more comes.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await enrollmentsOf(ws.token, cycle.id)).body.count).toBe(1 + STEP_MADE_PER_DAY);

    // The API trigger by a user is not bound: it enrols again (and that run's re-add is refused).
    const again = await trigger(ws.token, { automation_id: cycle.id, customer_id: last.customer_id });
    expect(again.status).toBe(201);
    await allEnded(ws, cycle.id, 2 + STEP_MADE_PER_DAY);
    expect(await refusalsOf(again.body.id)).toHaveLength(1);
  });

  it("two automations that ping-pong a customer between two groups stop at the bound", async () => {
    const ws = await automationWorkspace();
    const [one, two] = [await createGroup(ws, "Ping"), await createGroup(ws, "Pong")];
    const move = (from: string, to: string) =>
      activeAutomation(ws.token, {
        trigger: { type: "group_joined", contact_group_id: from },
        allow_reentry: true,
        steps: [
          { type: "remove_from_group", contact_group_id: from },
          { type: "add_to_group", contact_group_id: to },
        ],
      });
    const [ping, pong] = [await move(one, two), await move(two, one)];
    await join(ws, one, { email: "pingpong@example.com" });

    const pings = await allEnded(ws, ping.id, 1 + STEP_MADE_PER_DAY);
    const pongs = await allEnded(ws, pong.id, STEP_MADE_PER_DAY);
    // ping (1 by the user, 10 by pong's steps) made pong's 10; pong's eleventh is refused.
    const refused = await refusalsOf((pings.at(-1) as Enrollment).id);
    expect(refused).toEqual([{ automation_id: pong.id, reason: expect.any(String) }]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await enrollmentsOf(ws.token, ping.id)).body.count).toBe(1 + STEP_MADE_PER_DAY);
    expect((await enrollmentsOf(ws.token, pong.id)).body.count).toBe(STEP_MADE_PER_DAY);
    expect([...pings, ...pongs].every((e) => e.status === "completed")).toBe(true);
  });

  it("an ordinary re-entry through a step, and through the API, still enrols", async () => {
    const ws = await automationWorkspace();
    const group = await createGroup(ws, "Renewals");
    const welcome = await activeAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: group },
      allow_reentry: true,
      steps: [{ type: "update_customer", metadata: { renewed: true } }],
    });
    const renew = await activeAutomation(ws.token, {
      allow_reentry: true,
      steps: [
        { type: "remove_from_group", contact_group_id: group },
        { type: "add_to_group", contact_group_id: group },
      ],
    });
    const customer = { email: "renewing@example.com" };
    for (let n = 1; n <= 3; n++) {
      expect((await trigger(ws.token, { automation_id: renew.id, customer })).status).toBe(201);
      await allEnded(ws, renew.id, n);
      await allEnded(ws, welcome.id, n);
    }
    for (let n = 0; n < 3; n++) {
      expect((await trigger(ws.token, { automation_id: welcome.id, customer })).status).toBe(201);
    }
    await allEnded(ws, welcome.id, 6);
  });

  it("steps enrolling one customer at once never pass the bound: the count and the insert are one statement", async () => {
    const ws = await automationWorkspace();
    const group = await createGroup(ws, "Concurrent");
    const waiting = await activeAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: group },
      allow_reentry: true,
      steps: [WAIT],
    });
    const customer = await seedCustomer(ws.accountId);
    const causes: StepCause[] = Array.from({ length: STEP_MADE_PER_DAY + 5 }, (_, i) => ({
      enrollmentId: `enr_cause${i}`,
      refused: [],
    }));
    await Promise.all(
      causes.map((cause) =>
        enrolGroupJoiners({ db: db(), env, accountId: ws.accountId, now: Date.now(), cause }, group, [
          customer.id,
        ]),
      ),
    );
    expect((await enrollmentsOf(ws.token, waiting.id)).body.count).toBe(STEP_MADE_PER_DAY);
    expect(causes.flatMap((cause) => cause.refused)).toHaveLength(5);
  });

  it("the count of step-made enrolments is served by an index", async () => {
    const plan = await env.DB_2.prepare(
      `EXPLAIN QUERY PLAN SELECT count(*) FROM automation_enrollments
       WHERE automation_id = ? AND customer_id = ? AND caused_by IS NOT NULL AND created_at > ?`,
    )
      .bind("aut_x", "cus_x", 0)
      .all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join("\n")).toMatch(
      /USING (COVERING )?INDEX enrollments_step_made/,
    );
  });
});
