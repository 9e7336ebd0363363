import { runBatch } from "../../db/client";
import type { CampaignStatus } from "../../db/schema";
import { AppError, conflict, notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import type { RequestContext } from "../../lib/request-context";
import { resolveTemplate } from "./campaign-template";
import { toCampaign } from "./campaigns.dto";
import {
  type CampaignRow,
  campaignQueries,
  deleteDraft,
  findCampaign,
  insertCampaignStatement,
  moveCampaign,
  ownGroupIds,
} from "./campaigns.repo";
import type { CreateCampaignInput, UpdateCampaignInput } from "./campaigns.schemas";

export type CampaignContext = Pick<RequestContext, "db" | "env" | "accountId" | "now">;

export const campaignNotFound = (id: string) => notFound(`Campaign ${id}`);

/** 400 for a move the state machine of product.md does not have, naming the status. */
export const illegalMove = (row: CampaignRow, action: string, allowed: string) =>
  new AppError(
    400,
    "invalid_campaign_status",
    "Invalid campaign status",
    `Campaign ${row.id} is ${row.status}; it can be ${action} only when ${allowed}.`,
    { status: row.status },
  );

export async function ownCampaign(ctx: CampaignContext, id: string) {
  const row = await findCampaign(ctx.db, ctx.accountId, id);
  if (!row) throw campaignNotFound(id);
  return row;
}

/** 404 naming the first id that is not a contact group of the workspace. */
async function checkGroups(ctx: CampaignContext, ids: string[] | undefined) {
  if (!ids || ids.length === 0) return;
  const own = await ownGroupIds(ctx.db, ctx.accountId, ids);
  const missing = ids.find((id) => !own.has(id));
  if (missing) throw notFound(`Contact group ${missing}`);
}

/** The template columns a body's `template` sets (all of them, so a new template replaces the old). */
async function templateColumns(ctx: CampaignContext, template: CreateCampaignInput["template"]) {
  if (template === undefined) return {};
  if (template === null)
    return {
      templateId: null,
      templateVersionId: null,
      templateVariables: null,
      templateLayoutVersionId: null,
    };
  const resolved = await resolveTemplate(ctx, template, "body.template");
  return {
    templateId: resolved.template.id,
    // Named, it is pinned now (a published one is checked again when sent); else pinned when sent.
    templateVersionId: template.version_id ? resolved.version.id : null,
    templateVariables: JSON.stringify(resolved.variables),
    // The layout is pinned when the campaign is sent or scheduled, with the version.
    templateLayoutVersionId: null,
  };
}

/** A page, newest first, and the total, in one round trip. */
export async function listCampaigns(
  ctx: CampaignContext,
  status: CampaignStatus | undefined,
  limit: number,
  offset: number,
) {
  const { page, total } = campaignQueries(ctx.db, ctx.accountId, status, limit, offset);
  const [rows, totals] = await ctx.db.batch([page, total]);
  return { campaigns: rows.map(toCampaign), total: totals[0]?.total ?? 0 };
}

/** POST /v1/campaigns: a draft, committed in one batch with its idempotent answer. */
export async function createCampaign(
  ctx: CampaignContext,
  input: CreateCampaignInput,
  idempotencyKey?: string,
) {
  const request = { key: idempotencyKey, scope: "campaigns", body: input };
  const created = await idempotentCreate(ctx, request, async (store) => {
    const groups = [...new Set(input.contact_group_ids ?? [])];
    await checkGroups(ctx, groups);
    const template = await templateColumns(ctx, input.template ?? null);
    const row: CampaignRow = {
      id: newId("cmp"),
      accountId: ctx.accountId,
      name: input.name,
      from: input.from,
      replyTo: input.reply_to || null,
      subject: input.subject,
      html: input.html ?? null,
      text: input.text ?? null,
      templateId: null,
      templateVersionId: null,
      templateVariables: null,
      templateLayoutVersionId: null,
      ...template,
      contactGroupIds: JSON.stringify(groups),
      status: "draft",
      pausedReason: null,
      scheduledAt: null,
      startedAt: null,
      sentAt: null,
      recipientsCount: 0,
      sentCount: 0,
      suppressedCount: 0,
      failedCount: 0,
      openedCount: 0,
      clickedCount: 0,
      unsubscribedCount: 0,
      bouncedCount: 0,
      missingVariablesCount: 0,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const answer = toCampaign(row);
    await runBatch(ctx.db, [insertCampaignStatement(ctx.db, row), ...store.answer(201, answer)]);
    return { status: 201 as const, body: answer };
  });
  return created.body;
}

export async function getCampaign(ctx: CampaignContext, id: string) {
  return toCampaign(await ownCampaign(ctx, id));
}

/**
 * Edits are for drafts only (400 otherwise); the move is conditional, so a racing send wins cleanly.
 * A template replaces the campaign's html and text, and html or text replaces its template (a null
 * one is no body: the dashboard's editor posts empty fields as null, and saving a template
 * campaign there must not drop its template).
 */
export async function updateCampaign(ctx: CampaignContext, id: string, input: UpdateCampaignInput) {
  const row = await ownCampaign(ctx, id);
  if (row.status !== "draft") throw illegalMove(row, "edited", "draft");
  const groups = input.contact_group_ids ? [...new Set(input.contact_group_ids)] : undefined;
  await checkGroups(ctx, groups);
  const template = await templateColumns(ctx, input.template);
  const ownBody = (input.html ?? null) !== null || (input.text ?? null) !== null;
  const updated = await moveCampaign(ctx.db, ctx.accountId, id, ["draft"], {
    name: input.name,
    from: input.from,
    replyTo: input.reply_to === undefined ? undefined : input.reply_to || null,
    subject: input.subject,
    html: input.html,
    text: input.text,
    ...(input.template ? { html: null, text: null } : {}),
    ...(ownBody && input.template === undefined
      ? { templateId: null, templateVersionId: null, templateVariables: null, templateLayoutVersionId: null }
      : {}),
    ...template,
    contactGroupIds: groups ? JSON.stringify(groups) : undefined,
    updatedAt: ctx.now,
  });
  if (!updated) throw illegalMove(await ownCampaign(ctx, id), "edited", "draft");
  return toCampaign(updated);
}

/** Only a draft can be deleted: anything else has recipients and stats to keep (409). */
export async function deleteCampaign(ctx: CampaignContext, id: string) {
  const row = await ownCampaign(ctx, id);
  if (row.status !== "draft" || !(await deleteDraft(ctx.db, ctx.accountId, id))) {
    throw conflict(
      "campaign_not_draft",
      "Campaign not a draft",
      `Campaign ${id} is ${row.status === "draft" ? "no longer a draft" : row.status}; only drafts can be deleted.`,
    );
  }
}
