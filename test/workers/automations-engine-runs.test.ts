import { introspectWorkflowInstance } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  automationEnrollments,
  automations,
  contactGroupMembers,
  contactGroups,
  customers,
  emails,
  enrollmentSteps,
  suppressions,
} from "../../src/db/schema";
import { releaseHeldEnrollments, startEnrollments } from "../../src/features/automations/engine/lifecycle";
import { runStep } from "../../src/features/automations/engine/run-step";
import type { Step } from "../../src/features/automations/steps";
import { newId } from "../../src/lib/ids";
import {
  automationWorkspace,
  enrollmentOf,
  historyOf,
  runEnrollment,
  seedAutomation,
  seedCustomer,
  seedEnrollment,
  setSteps,
} from "./automations-helpers";
import { db, eventually, shardEnv } from "./helpers";
import { endpoint, receivedAt } from "./webhook-helpers";

const emailsOf = (accountId: string) => db().select().from(emails).where(eq(emails.accountId, accountId));
const metadataOf = async (customerId: string) =>
  JSON.parse((await db().select().from(customers).where(eq(customers.id, customerId)))[0]?.metadata ?? "");

describe("automation engine: a step runs once", () => {
  it("a redelivered step sends no second email and calls no webhook twice", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const hook = endpoint();
    const mail: Step = {
      id: "stp_mail",
      type: "send_email",
      from: `hi@${ws.domain}`,
      subject: "Hi",
      text: "Hello",
    };
    const call: Step = { id: "stp_hook", type: "webhook", url: hook.url, method: "POST", headers: {} };
    const automation = await seedAutomation(ws.accountId, [mail, call]);
    const enrollment = await seedEnrollment(automation, customer.id);

    const first = await runStep(shardEnv(), enrollment.id, mail);
    const again = await runStep(shardEnv(), enrollment.id, mail);
    expect(again).toEqual(first);
    expect(await emailsOf(ws.accountId)).toHaveLength(1);

    expect(await runStep(shardEnv(), enrollment.id, call)).toMatchObject({ status: "succeeded" });
    expect(await runStep(shardEnv(), enrollment.id, call)).toMatchObject({ status: "succeeded" });
    expect(await receivedAt(hook.path)).toHaveLength(1);
  });

  it("a retry of a step whose earlier attempt died after its claim records it failed, not repeated", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const hook = endpoint();
    const call: Step = { id: "stp_hook", type: "webhook", url: hook.url, method: "POST", headers: {} };
    const automation = await seedAutomation(ws.accountId, [call]);
    const enrollment = await seedEnrollment(automation, customer.id);
    // What the claim's batch left behind: the running row and the enrolment at the step.
    await db().insert(enrollmentSteps).values({
      enrollmentId: enrollment.id,
      stepId: "stp_hook",
      accountId: ws.accountId,
      stepType: "webhook",
      status: "running",
      startedAt: Date.now(),
    });
    await db()
      .update(automationEnrollments)
      .set({ currentStep: "stp_hook" })
      .where(eq(automationEnrollments.id, enrollment.id));
    const retried = await runStep(shardEnv(), enrollment.id, call);
    expect(retried).toMatchObject({
      status: "failed",
      error: "interrupted before its outcome was recorded; not repeated",
    });
    expect(await receivedAt(hook.path)).toHaveLength(0);
    expect((await historyOf(enrollment.id)).stp_hook?.status).toBe("failed");

    // The run, reaching the enrolment afterwards, goes past the step and completes.
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStatus("complete");
    expect(await receivedAt(hook.path)).toHaveLength(0);
    expect((await enrollmentOf(enrollment.id))?.status).toBe("completed");
  });
});

describe("automation engine: a step that keeps failing", () => {
  it("ends the enrolment failed, with a note, after the step's retries", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_meta", type: "update_customer", metadata: { never: true } },
    ]);
    const enrollment = await seedEnrollment(automation, customer.id);
    await using instance = await introspectWorkflowInstance(env.ENROLLMENT_WORKFLOW, enrollment.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "1 stp_meta" }, new Error("D1 unavailable"), 4);
    });
    await startEnrollments(env, [enrollment.id], enrollment.accountId);
    await instance.waitForStatus("complete");
    expect(await enrollmentOf(enrollment.id)).toMatchObject({
      status: "failed",
      note: "a step kept failing",
    });
    expect(await metadataOf(customer.id)).toEqual({});
  });
});

describe("automation engine: who gets the email", () => {
  it("skips an unsubscribed customer's and a suppressed address's email, recorded, and goes on", async () => {
    const ws = await automationWorkspace();
    const unsubscribed = await seedCustomer(ws.accountId, { unsubscribed: true });
    const suppressed = await seedCustomer(ws.accountId);
    await db()
      .insert(suppressions)
      .values({
        id: newId("sup"),
        accountId: ws.accountId,
        email: suppressed.email,
        reason: "hard_bounce",
        createdAt: Date.now(),
      });
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_mail", type: "send_email", from: `hi@${ws.domain}`, subject: "Hi", text: "Hello" },
      { id: "stp_meta", type: "update_customer", metadata: { after: 1 } },
    ]);
    for (const [customer, reason] of [
      [unsubscribed, "unsubscribed"],
      [suppressed, "suppressed"],
    ] as const) {
      const enrollment = await seedEnrollment(automation, customer.id);
      await using instance = await runEnrollment(enrollment);
      await instance.waitForStatus("complete");
      const history = await historyOf(enrollment.id);
      expect(history.stp_mail).toMatchObject({ status: "skipped", error: reason });
      expect(history.stp_meta?.status).toBe("succeeded");
      expect((await enrollmentOf(enrollment.id))?.status).toBe("completed");
    }
    expect(await emailsOf(ws.accountId)).toHaveLength(0);
  });
});

describe("automation engine: update_customer", () => {
  it("refuses a merge whose result would pass the metadata limit: the step fails, the customer is unchanged", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    await db()
      .update(customers)
      .set({ metadata: JSON.stringify({ kept: "k".repeat(10_000) }) })
      .where(eq(customers.id, customer.id));
    const grow: Step = { id: "stp_grow", type: "update_customer", metadata: { more: "m".repeat(8_000) } };
    const fits: Step = { id: "stp_fits", type: "update_customer", metadata: { kept: null, small: 1 } };
    const automation = await seedAutomation(ws.accountId, [grow, fits]);
    const enrollment = await seedEnrollment(automation, customer.id);

    expect(await runStep(shardEnv(), enrollment.id, grow)).toMatchObject({
      status: "failed",
      error: "the merged metadata would be over 16384 bytes",
    });
    expect(Object.keys(await metadataOf(customer.id))).toEqual(["kept"]);
    expect((await historyOf(enrollment.id)).stp_grow).toMatchObject({ status: "failed" });

    expect(await runStep(shardEnv(), enrollment.id, fits)).toMatchObject({ status: "succeeded" });
    expect(await metadataOf(customer.id)).toEqual({ small: 1 });
    expect((await historyOf(enrollment.id)).stp_fits).toMatchObject({ status: "succeeded" });
  });
});

describe("automation engine: edits, cancels, pauses", () => {
  it("ends an enrolment whose waited-on step was removed: completed, with a note", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const rest: Parameters<typeof seedAutomation>[1] = [
      { id: "stp_meta", type: "update_customer", metadata: { x: 1 } },
    ];
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_wait", type: "wait", duration: "3s" },
      ...rest,
    ]);
    const enrollment = await seedEnrollment(automation, customer.id);
    const started = Date.now();
    await using instance = await runEnrollment(enrollment, { sleeps: true });
    const waiting = await eventually(async () => (await enrollmentOf(enrollment.id))?.nextRunAt);
    // While it waits, the enrolment says when it resumes and where it is.
    expect(waiting - started).toBeGreaterThanOrEqual(3_000);
    expect(waiting - started).toBeLessThan(13_000);
    expect((await enrollmentOf(enrollment.id))?.currentStep).toBe("stp_wait");
    await setSteps(automation.id, rest);
    await instance.waitForStatus("complete");
    expect(await enrollmentOf(enrollment.id)).toMatchObject({
      status: "completed",
      note: "step stp_wait was removed",
      currentStep: null,
    });
    expect((await historyOf(enrollment.id)).stp_meta).toBeUndefined();
    expect(await metadataOf(customer.id)).toEqual({});
  });

  it("a step added after the one an enrolment waits at is run; one added before it is not", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const wait: Parameters<typeof seedAutomation>[1][number] = {
      id: "stp_wait",
      type: "wait",
      duration: "3s",
    };
    const automation = await seedAutomation(ws.accountId, [wait]);
    const enrollment = await seedEnrollment(automation, customer.id);
    await using instance = await runEnrollment(enrollment, { sleeps: true });
    await eventually(async () => (await enrollmentOf(enrollment.id))?.nextRunAt);
    await setSteps(automation.id, [
      { id: "stp_before", type: "update_customer", metadata: { before: true } },
      wait,
      { id: "stp_after", type: "update_customer", metadata: { after: true } },
    ]);
    await instance.waitForStatus("complete");
    expect(await metadataOf(customer.id)).toEqual({ after: true });
    expect((await enrollmentOf(enrollment.id))?.note).toBeNull();
  });

  it("a cancelled enrolment acts no further", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_wait", type: "wait", duration: "2s" },
      { id: "stp_meta", type: "update_customer", metadata: { reached: true } },
    ]);
    const enrollment = await seedEnrollment(automation, customer.id);
    await using instance = await runEnrollment(enrollment, { sleeps: true });
    await eventually(async () => (await enrollmentOf(enrollment.id))?.nextRunAt);
    await db()
      .update(automationEnrollments)
      .set({ status: "cancelled", finishedAt: Date.now() })
      .where(eq(automationEnrollments.id, enrollment.id));
    await instance.waitForStatus("complete");
    expect((await enrollmentOf(enrollment.id))?.status).toBe("cancelled");
    expect((await historyOf(enrollment.id)).stp_meta).toBeUndefined();
    expect(await metadataOf(customer.id)).toEqual({});
  });

  it("holds an enrolment while its automation is paused, until released on activation", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const automation = await seedAutomation(
      ws.accountId,
      [{ id: "stp_meta", type: "update_customer", metadata: { go: 1 } }],
      {
        status: "paused",
      },
    );
    const enrollment = await seedEnrollment(automation, customer.id);
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStepResult({ name: "1 decide" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await historyOf(enrollment.id)).toEqual({});
    expect((await enrollmentOf(enrollment.id))?.status).toBe("active");

    await db().update(automations).set({ status: "active" }).where(eq(automations.id, automation.id));
    // Another workspace's release reaches nothing.
    const other = await automationWorkspace();
    await releaseHeldEnrollments(shardEnv(), other.accountId, automation.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await historyOf(enrollment.id)).toEqual({});

    await releaseHeldEnrollments(shardEnv(), ws.accountId, automation.id);
    await instance.waitForStatus("complete");
    expect(await metadataOf(customer.id)).toEqual({ go: 1 });
  });
});

describe("automation engine: tenancy and missing targets", () => {
  it("a group of another workspace or a deleted one fails the step; the enrolment goes on", async () => {
    const ws = await automationWorkspace();
    const other = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const theirs = newId("grp");
    const now = Date.now();
    await db().insert(contactGroups).values({
      id: theirs,
      accountId: other.accountId,
      name: "Theirs",
      nameKey: "theirs",
      createdAt: now,
      updatedAt: now,
    });
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_theirs", type: "add_to_group", contact_group_id: theirs },
      { id: "stp_gone", type: "remove_from_group", contact_group_id: newId("grp") },
      { id: "stp_meta", type: "update_customer", metadata: { done: true } },
    ]);
    const enrollment = await seedEnrollment(automation, customer.id);
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStatus("complete");
    const history = await historyOf(enrollment.id);
    expect(history.stp_theirs).toMatchObject({
      status: "failed",
      error: `contact group ${theirs} not found`,
    });
    expect(history.stp_gone?.status).toBe("failed");
    expect(history.stp_meta?.status).toBe("succeeded");
    expect(
      await db().select().from(contactGroupMembers).where(eq(contactGroupMembers.groupId, theirs)),
    ).toEqual([]);
  });

  it("an enrolment naming another workspace's automation or customer does nothing to them", async () => {
    const ws = await automationWorkspace();
    const other = await automationWorkspace();
    const theirCustomer = await seedCustomer(other.accountId);
    const theirAutomation = await seedAutomation(other.accountId, [
      { id: "stp_meta", type: "update_customer", metadata: { touched: true } },
    ]);
    // Forged rows: an enrolment of `ws` pointing at the other workspace's automation, then customer.
    const forged = await seedEnrollment(
      { id: theirAutomation.id, accountId: ws.accountId },
      theirCustomer.id,
    );
    await using first = await runEnrollment(forged);
    await first.waitForStatus("complete");
    expect(await historyOf(forged.id)).toEqual({});

    const ours = await seedAutomation(ws.accountId, [
      { id: "stp_meta", type: "update_customer", metadata: { touched: true } },
    ]);
    const alien = await seedEnrollment(ours, theirCustomer.id);
    await using second = await runEnrollment(alien);
    await second.waitForStatus("complete");
    expect(await metadataOf(theirCustomer.id)).toEqual({});
  });
});
