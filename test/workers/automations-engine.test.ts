import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactGroupMembers, contactGroups, customers, emails } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import {
  automationWorkspace,
  enrollmentOf,
  historyOf,
  runEnrollment,
  seedAutomation,
  seedCustomer,
  seedEnrollment,
} from "./automations-helpers";
import { call, db } from "./helpers";
import { endpoint, receivedAt } from "./webhook-helpers";

async function seedGroup(accountId: string) {
  const id = newId("grp");
  const now = Date.now();
  await db()
    .insert(contactGroups)
    .values({
      id,
      accountId,
      name: `G ${id}`,
      nameKey: `g ${id}`.toLowerCase(),
      createdAt: now,
      updatedAt: now,
    });
  return id;
}

const emailsTo = (accountId: string) => db().select().from(emails).where(eq(emails.accountId, accountId));

describe("automation engine: the steps", () => {
  it("runs every step type in order and completes the enrolment", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId, { metadata: { plan: "free", stale: true } });
    const join = await seedGroup(ws.accountId);
    const leave = await seedGroup(ws.accountId);
    await db()
      .insert(contactGroupMembers)
      .values({ groupId: leave, customerId: customer.id, accountId: ws.accountId, createdAt: Date.now() });
    const hook = endpoint();
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_hook", type: "webhook", url: hook.url, method: "POST", headers: {} },
      { id: "stp_wait", type: "wait", duration: "3d" },
      {
        id: "stp_mail",
        type: "send_email",
        from: `hello@${ws.domain}`,
        subject: "Hi {{first_name}}",
        text: "Welcome {{name}}",
      },
      { id: "stp_join", type: "add_to_group", contact_group_id: join },
      { id: "stp_leave", type: "remove_from_group", contact_group_id: leave },
      { id: "stp_meta", type: "update_customer", metadata: { plan: "pro", stale: null } },
    ]);
    const enrollment = await seedEnrollment(automation, customer.id, { source: "test" });
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStatus("complete");

    const done = await enrollmentOf(enrollment.id);
    expect(done).toMatchObject({ status: "completed", currentStep: null, note: null, nextRunAt: null });
    expect(done?.finishedAt).toBeTypeOf("number");
    const history = await historyOf(enrollment.id);
    expect(Object.keys(history).sort()).toEqual([
      "stp_hook",
      "stp_join",
      "stp_leave",
      "stp_mail",
      "stp_meta",
      "stp_wait",
    ]);
    for (const row of Object.values(history)) expect(row.status).toBe("succeeded");

    expect(await receivedAt(hook.path)).toHaveLength(1);
    const [mail] = await emailsTo(ws.accountId);
    expect(mail).toMatchObject({ subject: "Hi Ada", source: "automation" });
    expect(mail?.text).toContain("Welcome Ada Lovelace");
    expect(mail?.text).toContain("/u/");
    expect(history.stp_mail?.detail).toEqual({ email_id: mail?.id });
    const members = await db()
      .select()
      .from(contactGroupMembers)
      .where(eq(contactGroupMembers.customerId, customer.id));
    expect(members.map((m) => m.groupId)).toEqual([join]);
    const [after] = await db().select().from(customers).where(eq(customers.id, customer.id));
    expect(JSON.parse(after?.metadata ?? "")).toEqual({ plan: "pro" });
  });

  it("a wait resumes with time advanced, not slept, and records when it ends", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_wait", type: "wait", duration: "30d" },
      { id: "stp_meta", type: "update_customer", metadata: { waited: true } },
    ]);
    const enrollment = await seedEnrollment(automation, customer.id);
    const started = Date.now();
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStatus("complete");
    const history = await historyOf(enrollment.id);
    const until = history.stp_wait?.detail.until as number;
    expect(until - started).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(until - started).toBeLessThan(30 * 86_400_000 + 60_000);
    expect(history.stp_wait?.status).toBe("succeeded");
    expect(history.stp_meta?.status).toBe("succeeded");
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("the email's one-click unsubscribe link unsubscribes the customer, and a later email step is skipped", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const mail = (id: string) => ({
      id,
      type: "send_email" as const,
      from: `hi@${ws.domain}`,
      subject: "Hi",
      text: "Hello",
    });
    const automation = await seedAutomation(ws.accountId, [mail("stp_first")]);
    const first = await seedEnrollment(automation, customer.id);
    await using run = await runEnrollment(first);
    await run.waitForStatus("complete");
    const [sent] = await emailsTo(ws.accountId);
    const link = /^<(.+)>$/.exec(
      (JSON.parse(sent?.headers ?? "{}") as Record<string, string>)["List-Unsubscribe"] ?? "",
    )?.[1];
    const path = new URL(link ?? "http://x/").pathname;
    expect(path).toMatch(/^\/u\/[0-9a-z]+$/);
    const answer = await call("POST", path, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      rawBody: "List-Unsubscribe=One-Click",
    });
    expect(answer.status).toBe(200);
    const [after] = await db().select().from(customers).where(eq(customers.id, customer.id));
    expect(after?.unsubscribed).toBe(true);

    const again = await seedAutomation(ws.accountId, [mail("stp_second")]);
    const second = await seedEnrollment(again, customer.id);
    await using rerun = await runEnrollment(second);
    await rerun.waitForStatus("complete");
    expect((await historyOf(second.id)).stp_second).toMatchObject({
      status: "skipped",
      error: "unsubscribed",
    });
    expect(await emailsTo(ws.accountId)).toHaveLength(1);
  });
});
