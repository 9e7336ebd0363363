import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { activeAutomation, type Enrollment, enrollmentsOf } from "./automations-api-helpers";
import {
  automationWorkspace,
  historyOf,
  runEnrollment,
  seedAutomation,
  seedCustomer,
  seedEnrollment,
} from "./automations-helpers";
import { callJson, eventually } from "./helpers";

type Workspace = Awaited<ReturnType<typeof automationWorkspace>>;

async function createGroup(ws: Workspace, name: string) {
  const res = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
    token: ws.token,
    body: { name },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Waits until every enrolment of the automation has finished, `count` of them, and answers them. */
const finished = (ws: Workspace, automationId: string, count: number) =>
  eventually(async () => {
    const page = await enrollmentsOf(ws.token, automationId, "?limit=100");
    const done = page.body.data.filter((e: Enrollment) => e.status !== "active");
    return page.body.count === count && done.length === count ? page.body.data : null;
  });

const metadataOf = async (customerId: string) =>
  JSON.parse(
    (
      await env.DB_2.prepare("SELECT metadata FROM customers WHERE id = ?")
        .bind(customerId)
        .first<{ metadata: string }>()
    )?.metadata ?? "{}",
  ) as Record<string, unknown>;

describe("add_to_group steps and group_joined automations", { timeout: 60_000 }, () => {
  it("a step that adds the customer to a group enrols it into the group's group_joined automations, which run", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const group = await createGroup(ws, "Trial");
    const follower = await activeAutomation(ws.token, {
      trigger: { type: "group_joined", contact_group_id: group },
      steps: [{ type: "update_customer", metadata: { welcomed: true } }],
    });
    const adder = await seedAutomation(ws.accountId, [
      { id: "stp_add", type: "add_to_group", contact_group_id: group },
    ]);
    const enrollment = await seedEnrollment(adder, customer.id);
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStatus("complete");
    expect((await historyOf(enrollment.id)).stp_add).toMatchObject({
      status: "succeeded",
      detail: { contact_group_id: group, changed: true },
    });

    const [joined] = await finished(ws, follower.id, 1);
    expect(joined).toMatchObject({
      customer_id: customer.id,
      trigger_type: "group_joined",
      trigger_data: { contact_group_id: group },
      status: "completed",
    });
    expect(await metadataOf(customer.id)).toEqual({ welcomed: true });
  });

  it("a cycle of automations (G1 → add to G2 → add to G1, and G1 → add to G1) ends: a member is never re-added", async () => {
    const ws = await automationWorkspace();
    const [g1, g2] = [await createGroup(ws, "One"), await createGroup(ws, "Two")];
    const joined = (group: string, target: string) =>
      activeAutomation(ws.token, {
        trigger: { type: "group_joined", contact_group_id: group },
        steps: [{ type: "add_to_group", contact_group_id: target }],
      });
    const [toTwo, backToOne, toItself] = [await joined(g1, g2), await joined(g2, g1), await joined(g1, g1)];

    const added = await callJson<{ added: number }>("POST", `/v1/contact-groups/${g1}/members`, {
      token: ws.token,
      body: { members: [{ email: "loop@example.com" }] },
    });
    expect(added.body).toMatchObject({ added: 1 });

    const [first] = await finished(ws, toTwo.id, 1);
    const [second] = await finished(ws, backToOne.id, 1);
    const [third] = await finished(ws, toItself.id, 1);
    const changedBy = async (e: Enrollment | undefined) =>
      Object.values(await historyOf(e?.id ?? ""))[0]?.detail.changed;
    expect(await changedBy(first)).toBe(true);
    expect(await changedBy(second)).toBe(false);
    expect(await changedBy(third)).toBe(false);
    // Nothing more comes: each automation ran once for the customer.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const automation of [toTwo, backToOne, toItself]) {
      expect((await enrollmentsOf(ws.token, automation.id)).body.count).toBe(1);
    }
  });
});
