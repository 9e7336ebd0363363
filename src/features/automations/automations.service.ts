import type { AutomationStatus } from "../../db/schema";
import { decryptSecret, encryptSecret } from "../../lib/crypto";
import { AppError, notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { afterResponse } from "../../lib/request-context";
import { validationError } from "../../lib/router";
import { newWebhookSecret } from "../inboxes/webhooks";
import type { AutomationContext } from "./automation-context";
import { stepsOf, toAutomation } from "./automations.dto";
import {
  type AutomationRow,
  automationQueries,
  deleteInactive,
  findAutomation,
  insertAutomationStatement,
  moveAutomation,
} from "./automations.repo";
import type { CreateAutomationInput, UpdateAutomationInput } from "./automations.schemas";
import { releaseHeldEnrollments } from "./engine/lifecycle";
import { checkSendable, checkSteps, checkTriggerTarget, triggerRefOf, withStepIds } from "./step-checks";
import { checkStepTemplates, checkStepTemplatesSendable } from "./step-templates";

/** 400 for a move the automation's status does not allow; `error` names the status. */
export const illegalMove = (row: Pick<AutomationRow, "id" | "status">, action: string, allowed: string) =>
  new AppError(
    400,
    "invalid_automation_status",
    `Automation is ${row.status}`,
    `Automation ${row.id} is ${row.status}; it can be ${action} only when ${allowed}.`,
    { status: row.status },
  );

export async function ownAutomation(ctx: AutomationContext, id: string) {
  const row = await findAutomation(ctx.db, ctx.accountId, id);
  if (!row) throw notFound(`Automation ${id}`);
  return row;
}

const show = (ctx: AutomationContext, row: AutomationRow) => toAutomation(row, ctx.env.ENCRYPTION_KEY);

/** A page, newest first, and the total, in one round trip. */
export async function listAutomations(
  ctx: AutomationContext,
  status: AutomationStatus | undefined,
  limit: number,
  offset: number,
) {
  const { page, total } = automationQueries(ctx.db, ctx.accountId, status, limit, offset);
  const [rows, totals] = await ctx.db.batch([page, total]);
  return {
    automations: await Promise.all(rows.map((row) => show(ctx, row))),
    total: totals[0]?.total ?? 0,
  };
}

/**
 * POST /v1/automations: a draft with a fresh `whsec_` secret, stored encrypted. The idempotent
 * answer commits with it and keeps the secret sealed; a replay opens it.
 */
export async function createAutomation(
  ctx: AutomationContext,
  input: CreateAutomationInput,
  idempotencyKey?: string,
) {
  const request = {
    key: idempotencyKey,
    scope: "automations",
    body: input,
    revive: async (stored: unknown) => {
      const answer = stored as Awaited<ReturnType<typeof show>>;
      return { ...answer, secret: await decryptSecret(ctx.env.ENCRYPTION_KEY, answer.secret) };
    },
  };
  const created = await idempotentCreate(ctx, request, async (store) => {
    await checkTriggerTarget(ctx, input.trigger);
    const given = withStepIds(input.steps);
    await checkSteps(ctx, given);
    const steps = await checkStepTemplates(ctx, given);
    const row: AutomationRow = {
      id: newId("aut"),
      accountId: ctx.accountId,
      name: input.name,
      status: "draft",
      triggerType: input.trigger.type,
      triggerRef: triggerRefOf(input.trigger),
      steps: JSON.stringify(steps),
      allowReentry: input.allow_reentry,
      secretEncrypted: await encryptSecret(ctx.env.ENCRYPTION_KEY, newWebhookSecret()),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const answer = await show(ctx, row);
    const sealed = { ...answer, secret: row.secretEncrypted };
    await ctx.db.batch([insertAutomationStatement(ctx.db, row), ...store.answer(201, sealed)]);
    return { status: 201 as const, body: answer };
  });
  return created.body;
}

export async function getAutomation(ctx: AutomationContext, id: string) {
  return show(ctx, await ownAutomation(ctx, id));
}

/**
 * Edits in any status. The move is conditional on the status read, so an activate or pause racing
 * the edit is never undone by it; an active automation's send_email domains must be verified.
 */
export async function updateAutomation(ctx: AutomationContext, id: string, input: UpdateAutomationInput) {
  const row = await ownAutomation(ctx, id);
  if (input.trigger) await checkTriggerTarget(ctx, input.trigger);
  let steps = input.steps ? withStepIds(input.steps) : undefined;
  if (steps) {
    await checkSteps(ctx, steps);
    steps = await checkStepTemplates(ctx, steps);
    if (row.status === "active") {
      await checkSendable(ctx, steps, "json");
      await checkStepTemplatesSendable(ctx, steps);
    }
  }
  const updated = await moveAutomation(ctx.db, ctx.accountId, id, [row.status], {
    name: input.name,
    triggerType: input.trigger?.type,
    triggerRef: input.trigger ? triggerRefOf(input.trigger) : undefined,
    steps: steps ? JSON.stringify(steps) : undefined,
    allowReentry: input.allow_reentry,
    updatedAt: ctx.now,
  });
  if (!updated) return updateAutomation(ctx, id, input);
  return show(ctx, updated);
}

/** An active automation is paused before it is deleted (400); its enrolments go with it. */
export async function deleteAutomation(ctx: AutomationContext, id: string) {
  if (await deleteInactive(ctx.db, ctx.accountId, id)) return;
  const row = await ownAutomation(ctx, id);
  throw new AppError(
    400,
    "automation_active",
    `Automation is ${row.status}`,
    `Automation ${id} is ${row.status}; pause it before deleting it.`,
    { status: row.status },
  );
}

/**
 * From `draft` or `paused`: needs at least one step and every send_email domain verified. From
 * `paused`, the enrolments the pause held are released after the response.
 */
export async function activateAutomation(ctx: AutomationContext, id: string) {
  const row = await ownAutomation(ctx, id);
  if (row.status === "active") throw illegalMove(row, "activated", "draft or paused");
  const steps = stepsOf(row);
  if (steps.length === 0) throw validationError([{ path: ["steps"], message: "add at least one step" }]);
  await checkSendable(ctx, steps);
  await checkStepTemplatesSendable(ctx, steps);
  const moved = await moveAutomation(ctx.db, ctx.accountId, id, ["draft", "paused"], {
    status: "active",
    updatedAt: ctx.now,
  });
  if (!moved) throw illegalMove(await ownAutomation(ctx, id), "activated", "draft or paused");
  // A paused automation's enrolments wait for it: they go on now rather than at their next check.
  if (row.status === "paused") {
    await afterResponse(ctx.defer, "automations.release_failed", { automation_id: id }, () =>
      releaseHeldEnrollments(ctx.env, ctx.accountId, id),
    );
  }
  return show(ctx, moved);
}

/** From `active`: no new enrolments; what the enrolments under way do is the engine's (see its docs). */
export async function pauseAutomation(ctx: AutomationContext, id: string) {
  const moved = await moveAutomation(ctx.db, ctx.accountId, id, ["active"], {
    status: "paused",
    updatedAt: ctx.now,
  });
  if (!moved) throw illegalMove(await ownAutomation(ctx, id), "paused", "active");
  return show(ctx, moved);
}
