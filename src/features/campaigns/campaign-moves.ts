import { and, eq } from "drizzle-orm";
import { runBatch } from "../../db/client";
import { connections } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { domainOf, parseAddress } from "../../mail/address";
import {
  assertFillable,
  declaredWith,
  htmlHasUnsubscribe,
  sendableTemplate,
  staticsOf,
} from "./campaign-template";
import { toCampaign } from "./campaigns.dto";
import { type CampaignRow, moveCampaign } from "./campaigns.repo";
import { type CampaignContext, illegalMove, ownCampaign } from "./campaigns.service";
import { skipPendingStatement, startSending } from "./recipients.repo";
import type { CampaignBatchMessage } from "./send-batch";
import { hasUnsubscribeVariable } from "./variables";

const MAX_SCHEDULE_AHEAD_MS = 365 * 86_400_000;

/**
 * Hands the campaign's next batch to the email queue, naming its workspace (whose shard the
 * consumer finds through the directory); a lost message is found by the minute sweep.
 */
export async function queueBatch(queue: Queue, campaignId: string, accountId: string | undefined) {
  try {
    await queue.send({ campaignId, ...(accountId ? { accountId } : {}) } satisfies CampaignBatchMessage);
  } catch (error) {
    log.warn("campaigns.enqueue_failed", { campaign_id: campaignId, ...describeError(error) });
  }
}

/**
 * 400 naming everything that keeps the campaign from being sent; a template is checked again (404,
 * 422) and answered: the published version to pin (or the one the campaign names).
 */
async function checkReady(ctx: CampaignContext, row: CampaignRow) {
  const template = row.templateId
    ? await sendableTemplate(ctx, row.templateId, row.templateVersionId, staticsOf(row), "template")
    : null;
  const missing: string[] = [];
  const domain = domainOf(parseAddress(row.from)?.address ?? "");
  const [connection] = await ctx.db
    .select({ status: connections.status })
    .from(connections)
    .where(and(eq(connections.accountId, ctx.accountId), eq(connections.domain, domain)))
    .limit(1);
  if (connection?.status !== "verified")
    missing.push(`the from domain ${domain} is not a verified connection of this workspace`);
  if (template ? !htmlHasUnsubscribe(template.version, template.layout) : !hasUnsubscribeVariable(row.html))
    missing.push(`the ${template ? "template's " : ""}html does not contain {{unsubscribe_url}}`);
  if ((JSON.parse(row.contactGroupIds) as string[]).length === 0) missing.push("no contact_group_ids");
  if (missing.length > 0) {
    throw new AppError(400, "campaign_not_ready", "Campaign not ready", `Not sent: ${missing.join("; ")}.`, {
      missing,
    });
  }
  if (!template) return null;
  await assertFillable(ctx.db, row, declaredWith(template.version, template.layout), staticsOf(row));
  return { templateVersionId: template.version.id, templateLayoutVersionId: template.layout?.id ?? null };
}

/**
 * Starts a draft or scheduled campaign now (recipient rows first, then the first batch), or
 * schedules it for `scheduledAt` (the minute sweep starts it).
 */
export async function sendCampaign(ctx: CampaignContext, id: string, scheduledAt?: string) {
  const row = await ownCampaign(ctx, id);
  if (row.status !== "draft" && row.status !== "scheduled")
    throw illegalMove(row, "sent", "draft or scheduled");
  const pins = await checkReady(ctx, row);
  const at = scheduledAt ? Date.parse(scheduledAt) : 0;
  if (at > ctx.now + MAX_SCHEDULE_AHEAD_MS) {
    throw new AppError(
      400,
      "validation_error",
      "Invalid request",
      "scheduled_at must be at most 365 days ahead.",
    );
  }
  if (at > ctx.now) {
    const scheduled = await moveCampaign(ctx.db, ctx.accountId, id, ["draft", "scheduled"], {
      status: "scheduled",
      scheduledAt: at,
      ...(pins ?? {}),
      updatedAt: ctx.now,
    });
    if (!scheduled) throw illegalMove(await ownCampaign(ctx, id), "sent", "draft or scheduled");
    return toCampaign(scheduled);
  }
  if (!(await startSending(ctx.db, ctx.accountId, id, ctx.now, pins)))
    throw illegalMove(await ownCampaign(ctx, id), "sent", "draft or scheduled");
  await queueBatch(ctx.env.EMAIL_QUEUE, id, ctx.accountId);
  return toCampaign(await ownCampaign(ctx, id));
}

/** Stops new batches: the one under way finishes, the next finds the campaign paused. */
export async function pauseCampaign(ctx: CampaignContext, id: string) {
  const moved = await moveCampaign(ctx.db, ctx.accountId, id, ["sending"], {
    status: "paused",
    updatedAt: ctx.now,
  });
  if (!moved) throw illegalMove(await ownCampaign(ctx, id), "paused", "sending");
  return toCampaign(moved);
}

/** Continues with the recipients still pending; whoever was sent already is never sent again. */
export async function resumeCampaign(ctx: CampaignContext, id: string) {
  const moved = await moveCampaign(ctx.db, ctx.accountId, id, ["paused"], {
    status: "sending",
    pausedReason: null,
    updatedAt: ctx.now,
  });
  if (!moved) throw illegalMove(await ownCampaign(ctx, id), "resumed", "paused");
  await queueBatch(ctx.env.EMAIL_QUEUE, id, ctx.accountId);
  return toCampaign(moved);
}

/** Ends the campaign for good: recipients not yet sent are `skipped` (emails already queued still go). */
export async function cancelCampaign(ctx: CampaignContext, id: string) {
  const moved = await moveCampaign(ctx.db, ctx.accountId, id, ["scheduled", "sending", "paused"], {
    status: "cancelled",
    updatedAt: ctx.now,
  });
  if (!moved) throw illegalMove(await ownCampaign(ctx, id), "cancelled", "scheduled, sending or paused");
  await runBatch(ctx.db, [skipPendingStatement(id, ctx.now)]);
  return toCampaign(moved);
}
