import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AutomationStatus, EnrollmentStatus } from "../../db/schema";
import { automationEnrollments, automations, customers } from "../../db/schema";
import type { Step } from "../../features/automations/steps";
import { notFound } from "../../lib/errors";
import type { TriggerShape } from "./editor-draft";

/**
 * What the automation pages read. Every query carries the workspace's id, so another workspace's
 * automation or enrolment is a 404. The list's "active enrolments" column has no API counterpart,
 * so the pages read the rows here rather than through the API's answers.
 */

type AutomationRow = typeof automations.$inferSelect;

export interface AutomationView {
  id: string;
  name: string;
  status: AutomationStatus;
  trigger: TriggerShape;
  allow_reentry: boolean;
  steps: Step[];
  created_at: number;
  updated_at: number;
}

export function triggerOf(row: Pick<AutomationRow, "triggerType" | "triggerRef">): TriggerShape {
  if (row.triggerType === "group_joined")
    return { type: row.triggerType, contact_group_id: row.triggerRef ?? "" };
  if (row.triggerType === "ticket_resolved") return { type: row.triggerType, inbox_id: row.triggerRef ?? "" };
  return { type: "api" };
}

const viewOf = (row: AutomationRow): AutomationView => ({
  id: row.id,
  name: row.name,
  status: row.status,
  trigger: triggerOf(row),
  allow_reentry: row.allowReentry,
  steps: JSON.parse(row.steps) as Step[],
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** One page of the workspace's automations, newest first, each with its active enrolments. */
export async function automationPage(db: Db, accountId: string, limit: number, offset: number) {
  const mine = eq(automations.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(automations)
      .where(mine)
      .orderBy(desc(automations.createdAt), desc(automations.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(automations).where(mine),
  ]);
  const ids = rows.map((row) => row.id);
  const active =
    ids.length === 0
      ? []
      : await db
          .select({ id: automationEnrollments.automationId, n: count() })
          .from(automationEnrollments)
          .where(
            and(
              eq(automationEnrollments.accountId, accountId),
              inArray(automationEnrollments.automationId, ids),
              eq(automationEnrollments.status, "active"),
            ),
          )
          .groupBy(automationEnrollments.automationId);
  const activeOf = new Map(active.map((a) => [a.id, a.n]));
  return {
    automations: rows.map((row) => ({ ...viewOf(row), active_enrollments: activeOf.get(row.id) ?? 0 })),
    total: total?.n ?? 0,
  };
}

export async function automationOf(db: Db, accountId: string, id: string): Promise<AutomationView> {
  const [row] = await db
    .select()
    .from(automations)
    .where(and(eq(automations.accountId, accountId), eq(automations.id, id)));
  if (!row) throw notFound(`Automation ${id}`);
  return viewOf(row);
}

/** One page of an automation's enrolments, newest first, optionally of one status, with each customer's email. */
export async function enrollmentPage(
  db: Db,
  accountId: string,
  automationId: string,
  query: { status?: EnrollmentStatus | undefined; limit: number; offset: number },
) {
  const where = and(
    eq(automationEnrollments.accountId, accountId),
    eq(automationEnrollments.automationId, automationId),
    query.status ? eq(automationEnrollments.status, query.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ enrollment: automationEnrollments, email: customers.email })
      .from(automationEnrollments)
      .leftJoin(customers, eq(customers.id, automationEnrollments.customerId))
      .where(where)
      .orderBy(desc(automationEnrollments.createdAt), desc(automationEnrollments.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(automationEnrollments).where(where),
  ]);
  return {
    enrollments: rows.map((r) => ({ ...r.enrollment, email: r.email })),
    total: total?.n ?? 0,
  };
}

export type EnrollmentListItem = Awaited<ReturnType<typeof enrollmentPage>>["enrollments"][number];
