import { env } from "cloudflare:workers";
import { automationEnrollments, automations, customers, enrollmentSteps } from "../../src/db/schema";
import type { Step } from "../../src/features/automations/steps";
import { encryptSecret } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { db } from "./helpers";

/**
 * Rows the engine writes (enrolments, their history) and automations in states the API reaches
 * only through the engine, inserted as the engine and the API store them.
 */

export const SECRET = "whsec_dashboardautomationsecret0123456789";

export async function seedAutomation(
  accountId: string,
  overrides: Partial<typeof automations.$inferInsert> & { stepList?: Step[] } = {},
) {
  const { stepList, ...rest } = overrides;
  const now = Date.now();
  const row = {
    id: newId("aut"),
    accountId,
    name: "Welcome",
    status: "draft" as const,
    triggerType: "api" as const,
    steps: JSON.stringify(stepList ?? [{ id: "stp_wait", type: "wait", duration: "1d" }]),
    secretEncrypted: await encryptSecret(env.ENCRYPTION_KEY, SECRET),
    createdAt: now,
    updatedAt: now,
    ...rest,
  };
  await db().insert(automations).values(row);
  return row;
}

export async function seedCustomer(accountId: string, email: string, name: string | null = null) {
  const id = newId("cus");
  await db()
    .insert(customers)
    .values({ id, accountId, email, name, createdAt: Date.now(), updatedAt: Date.now() });
  return id;
}

export async function seedEnrollment(
  automation: { id: string; accountId: string },
  customerId: string,
  overrides: Partial<typeof automationEnrollments.$inferInsert> = {},
) {
  const now = Date.now();
  const row = {
    id: newId("enr"),
    accountId: automation.accountId,
    automationId: automation.id,
    customerId,
    status: "active" as const,
    triggerType: "api" as const,
    triggerData: "{}",
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  await db().insert(automationEnrollments).values(row);
  return row;
}

export async function seedHistory(
  enrollment: { id: string; accountId: string },
  entries: Array<Partial<typeof enrollmentSteps.$inferInsert> & { stepId: string; stepType: string }>,
) {
  const base = Date.now();
  await db()
    .insert(enrollmentSteps)
    .values(
      entries.map((entry, i) => ({
        enrollmentId: enrollment.id,
        accountId: enrollment.accountId,
        status: "succeeded" as const,
        startedAt: base + i,
        ...entry,
      })),
    );
}
