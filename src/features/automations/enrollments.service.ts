import type { EnrollmentStatus } from "../../db/schema";
import { AppError, conflict, notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import type { RequestContext } from "../../lib/request-context";
import { isUniqueViolation } from "../../lib/unique-violation";
import { findCustomer } from "../customers/customers.repo";
import { findOrCreateCustomer } from "../customers/customers.service";
import type { AutomationRow } from "./automations.repo";
import { ownAutomation } from "./automations.service";
import { stopEnrollment } from "./engine/lifecycle";
import { startRuns } from "./enrollment-runs";
import { toEnrollment } from "./enrollments.dto";
import {
  ACTIVE_GUARD,
  cancelActive,
  enrollmentQueries,
  findEnrollmentWithHistory,
  insertEnrollment,
  newEnrollment,
} from "./enrollments.repo";
import type { TriggerBody } from "./enrollments.schemas";

export type EnrollmentContext = Pick<RequestContext, "db" | "env" | "accountId" | "now" | "defer">;

const enrollmentNotFound = (id: string) => notFound(`Enrollment ${id}`);

async function customerIdFor(ctx: EnrollmentContext, body: TriggerBody) {
  if (body.customer_id) {
    if (!(await findCustomer(ctx.db, ctx.accountId, body.customer_id)))
      throw notFound(`Customer ${body.customer_id}`);
    return body.customer_id;
  }
  return (await findOrCreateCustomer(ctx.db, ctx.accountId, body.customer ?? { email: "" }, ctx.now)).id;
}

const notActive = (row: AutomationRow) =>
  new AppError(
    400,
    "automation_not_active",
    `Automation is ${row.status}`,
    `Automation ${row.id} is ${row.status}; only an active automation enrols customers.`,
    { status: row.status },
  );

const alreadyEnrolled = (automationId: string, customerId: string) =>
  conflict(
    "already_enrolled",
    "Customer already enrolled",
    `Customer ${customerId} already has an active enrolment in automation ${automationId}, which does not allow re-entry.`,
  );

/**
 * POST /v1/automations/trigger. The partial unique index over active enrolments is the re-entry
 * rule, so two concurrent triggers for one customer give one 201 and one 409. With an
 * `Idempotency-Key` the 201 is stored in the same batch as the enrolment and replayed for 24 hours
 * (the key space and rules of POST /v1/emails: another body under the same key is a 409).
 */
export async function triggerAutomation(ctx: EnrollmentContext, body: TriggerBody, idempotencyKey?: string) {
  const request = { key: idempotencyKey, scope: "automations_trigger", body };
  return idempotentCreate(ctx, request, async (store) => {
    const automation = await ownAutomation(ctx, body.automation_id);
    if (automation.status !== "active") throw notActive(automation);
    const customerId = await customerIdFor(ctx, body);
    const row = newEnrollment(
      automation,
      customerId,
      { type: "api", data: body.data ?? {} },
      newId("enr"),
      ctx.now,
    );
    const answer = toEnrollment(row, []);
    try {
      await ctx.db.batch([insertEnrollment(ctx.db, row), ...store.answer(201, answer)]);
    } catch (error) {
      if (isUniqueViolation(error, ACTIVE_GUARD)) throw alreadyEnrolled(automation.id, customerId);
      throw error;
    }
    await startRuns(ctx.env, ctx.accountId, [row.id], ctx.defer);
    return { status: 201 as const, body: answer };
  });
}

/** A page of the automation's enrolments, newest first, and how many match. */
export async function listEnrollments(
  ctx: Pick<EnrollmentContext, "db" | "env" | "accountId" | "now">,
  automationId: string,
  status: EnrollmentStatus | undefined,
  limit: number,
  offset: number,
) {
  await ownAutomation(ctx, automationId);
  const { page, total } = enrollmentQueries(ctx.db, ctx.accountId, automationId, status, limit, offset);
  const [rows, totals] = await ctx.db.batch([page, total]);
  return { enrollments: rows.map((row) => toEnrollment(row)), total: totals[0]?.total ?? 0 };
}

export async function getEnrollment(ctx: Pick<EnrollmentContext, "db" | "accountId">, id: string) {
  const found = await findEnrollmentWithHistory(ctx.db, ctx.accountId, id);
  if (!found) throw enrollmentNotFound(id);
  return toEnrollment(found.row, found.history);
}

/** Active → cancelled (conditionally, so a run finishing at the same moment wins cleanly), then its run ends. */
export async function cancelEnrollment(
  ctx: Pick<EnrollmentContext, "db" | "env" | "accountId" | "now">,
  id: string,
) {
  const cancelled = await cancelActive(ctx.db, ctx.accountId, id, ctx.now);
  if (!cancelled) {
    const current = await getEnrollment(ctx, id);
    throw new AppError(
      409,
      "enrollment_finished",
      `Enrollment is ${current.status}`,
      `Enrollment ${id} is ${current.status}; only an active enrolment can be cancelled.`,
      { status: current.status },
    );
  }
  await stopEnrollment(ctx.env, id);
  return getEnrollment(ctx, id);
}
