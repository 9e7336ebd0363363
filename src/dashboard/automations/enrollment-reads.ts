import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { automationEnrollments, customers, enrollmentSteps } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { type AutomationView, automationOf } from "./automation-reads";

/** An enrolment with its automation, its customer and its history (one row per step reached). */
export async function enrollmentOf(db: Db, accountId: string, id: string) {
  const [found] = await db
    .select({ enrollment: automationEnrollments, email: customers.email, customerName: customers.name })
    .from(automationEnrollments)
    .leftJoin(customers, eq(customers.id, automationEnrollments.customerId))
    .where(and(eq(automationEnrollments.accountId, accountId), eq(automationEnrollments.id, id)));
  if (!found) throw notFound(`Enrollment ${id}`);
  const [automation, history] = await Promise.all([
    automationOf(db, accountId, found.enrollment.automationId),
    db
      .select()
      .from(enrollmentSteps)
      .where(and(eq(enrollmentSteps.accountId, accountId), eq(enrollmentSteps.enrollmentId, id)))
      .orderBy(asc(enrollmentSteps.startedAt)),
  ]);
  return {
    ...found.enrollment,
    email: found.email,
    customerName: found.customerName,
    automation,
    history: history.map((row) => ({ ...row, detail: parseDetail(row.detail) })),
  };
}

export type EnrollmentView = Awaited<ReturnType<typeof enrollmentOf>>;
export type HistoryEntry = EnrollmentView["history"][number];

/** The history row's JSON detail as an object; anything else is shown as text under `detail`. */
function parseDetail(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // Not JSON: shown as it is.
  }
  return { detail: text };
}

/** Which step (1-based position and type) of the automation an id names, as it stands now. */
export function stepLabel(automation: AutomationView, stepId: string | null, type?: string): string {
  if (!stepId) return "–";
  const index = automation.steps.findIndex((step) => step.id === stepId);
  if (index < 0) return `${type ?? "step"} (removed)`;
  return `${index + 1}. ${automation.steps[index]?.type}`;
}
