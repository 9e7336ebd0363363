import { introspectWorkflowInstance } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { automationEnrollments, automations, customers, enrollmentSteps } from "../../src/db/schema";
import { startEnrollments } from "../../src/features/automations/engine/lifecycle";
import type { StepInput } from "../../src/features/automations/steps";
import { encryptSecret } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { db, sendingWorkspace } from "./helpers";

/**
 * Rows the automations API would write (it lives in another branch): a workspace that can send, its
 * customer, an automation and enrolments, handed to the engine with startEnrollments.
 */
export async function automationWorkspace() {
  const ws = await sendingWorkspace(`auto-${crypto.randomUUID().slice(0, 8)}.test`);
  return ws;
}

export async function seedCustomer(
  accountId: string,
  fields: { email?: string; name?: string; metadata?: Record<string, unknown>; unsubscribed?: boolean } = {},
) {
  const now = Date.now();
  const row = {
    id: newId("cus"),
    accountId,
    email: fields.email ?? `c-${crypto.randomUUID().slice(0, 8)}@example.org`,
    name: fields.name ?? "Ada Lovelace",
    phone: "+441234567",
    metadata: JSON.stringify(fields.metadata ?? {}),
    unsubscribed: fields.unsubscribed ?? false,
    createdAt: now,
    updatedAt: now,
  };
  await db().insert(customers).values(row);
  return row;
}

export const SECRET = `whsec_${"t".repeat(43)}`;

export async function seedAutomation(
  accountId: string,
  steps: StepInput[],
  options: { status?: "draft" | "active" | "paused"; name?: string } = {},
) {
  const now = Date.now();
  const row = {
    id: newId("aut"),
    accountId,
    name: options.name ?? "Onboarding",
    status: options.status ?? "active",
    triggerType: "api" as const,
    steps: JSON.stringify(steps.map((s, i) => ({ ...s, id: s.id ?? `stp_${i + 1}` }))),
    secretEncrypted: await encryptSecret(env.ENCRYPTION_KEY, SECRET),
    createdAt: now,
    updatedAt: now,
  };
  await db().insert(automations).values(row);
  return row;
}

export async function setSteps(automationId: string, steps: StepInput[]) {
  await db()
    .update(automations)
    .set({ steps: JSON.stringify(steps) })
    .where(eq(automations.id, automationId));
}

/** Inserts an enrolment as the trigger would; `start` hands it to the engine. */
export async function seedEnrollment(
  automation: { id: string; accountId: string },
  customerId: string,
  triggerData: Record<string, unknown> = {},
) {
  const now = Date.now();
  const row = {
    id: newId("enr"),
    accountId: automation.accountId,
    automationId: automation.id,
    customerId,
    triggerType: "api" as const,
    triggerData: JSON.stringify(triggerData),
    createdAt: now,
    updatedAt: now,
  };
  await db().insert(automationEnrollments).values(row);
  return row;
}

/**
 * Starts one enrolment's run with sleeps disabled, naming its workspace as the API does (the run's
 * steps find the shard from it); answers its introspector (dispose it).
 */
export async function runEnrollment(
  enrollment: { id: string; accountId: string },
  options: { sleeps?: boolean } = {},
) {
  const instance = await introspectWorkflowInstance(env.ENROLLMENT_WORKFLOW, enrollment.id);
  if (!options.sleeps) await instance.modify(async (m) => m.disableSleeps());
  await startEnrollments(env, [enrollment.id], enrollment.accountId);
  return instance;
}

export async function enrollmentOf(id: string) {
  const [row] = await db().select().from(automationEnrollments).where(eq(automationEnrollments.id, id));
  return row;
}

export async function historyOf(id: string) {
  const rows = await db().select().from(enrollmentSteps).where(eq(enrollmentSteps.enrollmentId, id));
  return Object.fromEntries(
    rows.map((r) => [r.stepId, { ...r, detail: JSON.parse(r.detail ?? "{}") as Record<string, unknown> }]),
  );
}
