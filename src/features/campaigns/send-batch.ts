import { eq, sql } from "drizzle-orm";
import { createDb, type Db, runBatch } from "../../db/client";
import { campaigns } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { limitsFor, type PlanName, parseQuotaOverrides } from "../../lib/plans";
import { mayAct, SUSPENDED_CODE } from "../../lib/workspace-gate";
import { domainOf, parseAddress } from "../../mail/address";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import { deliverEmails } from "../emails/deliver";
import { acceptedStatements, prepareEmails } from "../emails/emails.accept";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails, type SendMessage } from "../emails/enqueue";
import { loadSendState, type SendState } from "../emails/send-state";
import { assertEmailQuota, currentUsage } from "../usage/usage.service";
import { type BatchTemplate, batchTemplate, campaignEmail, skipReason } from "./campaign-email";
import { pinnedVersionQuery } from "./campaign-template";
import type { CampaignRow } from "./campaigns.repo";
import {
  claimedBy,
  claimStatement,
  finishStatement,
  type PendingRecipient,
  pendingBatchQuery,
  settleStatements,
  skipMissingStatements,
} from "./recipients.repo";
import { fill, oneLine } from "./variables";

/** The queue message that sends a campaign's next batch. */
export interface CampaignBatchMessage {
  campaignId: string;
  /** Its workspace (absent from messages queued before workspaces had shards). */
  accountId?: string;
}

export type BatchOutcome = "continue" | "done";

const EMAIL_QUOTAS = ["emails_per_hour", "emails_per_day", "emails_per_month"] as const;

/** How many more emails the workspace's hourly, daily and monthly quotas allow now. */
function quotaRoom(state: SendState, plan: PlanName, overrides: string, now: number) {
  const limits = limitsFor(plan, parseQuotaOverrides(overrides));
  const usage = currentUsage(state.usage, now);
  const room = Math.min(
    ...EMAIL_QUOTAS.map((q) => {
      const limit = limits[q];
      return limit === null ? Number.POSITIVE_INFINITY : Math.max(limit - usage[q], 0);
    }),
  );
  return { room, refusal: (count: number) => catchAppError(() => assertEmailQuota(usage, limits, count)) };
}

function catchAppError(run: () => void): AppError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The recipients a template can be sent to, and those skipped with the variables they lack. */
function renderable(recipients: PendingRecipient[], template: BatchTemplate | null) {
  const wanted: PendingRecipient[] = [];
  const skips: Array<{ customerId: string; detail: string }> = [];
  for (const r of recipients) {
    const reason = template ? skipReason(template, r) : null;
    if (reason) skips.push({ customerId: r.customerId, detail: reason });
    else wanted.push(r);
  }
  return { wanted, skips };
}

/** The pinned version is gone (the template was removed mid-send): paused, nothing half-rendered. */
const templateGone = (campaign: CampaignRow) =>
  new AppError(
    422,
    "template_not_found",
    "Template not found",
    `Template ${campaign.templateId} version ${campaign.templateVersionId ?? "(none)"} no longer exists.`,
  );

/** A campaign the service must stop: paused, with the reason on it for people to read. */
async function pauseFor(db: Db, campaign: CampaignRow, reason: AppError, now: number) {
  const text = `${reason.code}: ${reason.detail ?? reason.error}`;
  await db
    .update(campaigns)
    .set({ status: "paused", pausedReason: text, updatedAt: now })
    .where(sql`${campaigns.id} = ${campaign.id} AND ${campaigns.status} = 'sending'`);
  log.warn("campaigns.paused", { campaign_id: campaign.id, code: reason.code });
}

/**
 * Sends a campaign's next batch of at most 100 pending recipients through the email pipeline:
 * suppressed addresses become `suppressed`, customers unsubscribed since the send began `skipped`,
 * the rest become emails whose rows are written only with their recipient's claim, then delivered
 * here at once (see `deliverNow`). A quota that cannot take them all sends what fits and pauses
 * the campaign with the reason. Answers whether another batch should follow; `queueNext`, when
 * given, is called as soon as this batch's emails are written and another should follow, so the
 * next batch is prepared while this one is being delivered.
 */
export async function sendCampaignBatch(
  env: Env,
  campaignId: string,
  now = Date.now(),
  queueNext?: () => Promise<void>,
): Promise<BatchOutcome> {
  const db = createDb(env.DB);
  // The pinned template version comes with the campaign: one read per batch, never per recipient.
  const [found, pending, versions, layouts] = await db.batch([
    db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1),
    pendingBatchQuery(db, campaignId),
    pinnedVersionQuery(db, campaignId),
    pinnedVersionQuery(db, campaignId, true),
  ]);
  const campaign = found[0];
  if (campaign?.status !== "sending") return "done";
  if (pending.length === 0) {
    await runBatch(db, [finishStatement(campaignId, now)]);
    return "done";
  }
  const version = versions[0];
  if (campaign.templateId && !version) {
    await pauseFor(db, campaign, templateGone(campaign), now);
    return "done";
  }
  const template = version ? batchTemplate(campaign, version, layouts[0] ?? null) : null;
  const from = parseAddress(campaign.from);
  const subscribed = pending.filter((r) => !r.unsubscribed);
  const state = await loadSendState(
    db,
    campaign.accountId,
    [from ? domainOf(from.address) : ""],
    subscribed.map((r) => r.email),
    null,
    now,
  );
  if (!state.account) return "done";
  if (!mayAct(state.account.status)) {
    // Held, not paused: the campaign stays `sending` and the minute sweep resumes it once the
    // workspace is reinstated (stalledSending skips it until then).
    log.info("campaigns.held", { campaign_id: campaignId, reason: SUSPENDED_CODE });
    return "done";
  }
  const suppressed = new Set(state.suppressed);
  const refusedRecipients = subscribed.filter((r) => suppressed.has(r.email));
  const refused = refusedRecipients.map((r) => r.customerId);
  const settle = [
    // Counted while still pending, before the settling below: once, whichever run settles them.
    ...deliveryOutcomes.suppressed(
      campaign.accountId,
      refusedRecipients.map((r) => ({
        tags: [{ name: "campaign", value: campaign.id }],
        key: r.customerId,
        recipients: [r.email],
        from: campaign.from,
        subject: oneLine(fill(campaign.subject, { email: r.email, name: r.name, unsubscribeUrl: "" })),
        campaignId: campaign.id,
      })),
      (send) => sql`EXISTS (SELECT 1 FROM campaign_recipients WHERE campaign_id = ${campaign.id}
        AND customer_id = ${send} ->> '$.key' AND state = 'pending')`,
      now,
    ),
    ...settleStatements(
      campaignId,
      pending.filter((r) => r.unsubscribed).map((r) => r.customerId),
      "skipped",
      "unsubscribed",
      now,
    ),
    ...settleStatements(campaignId, refused, "suppressed", "suppressed", now),
  ];
  const { wanted, skips } = renderable(
    subscribed.filter((r) => !suppressed.has(r.email)),
    template,
  );
  settle.push(...skipMissingStatements(campaignId, skips, now));
  const quota = quotaRoom(state, state.account.plan as PlanName, state.account.quotaOverrides, now);
  const toSend = wanted.slice(0, Math.min(wanted.length, quota.room));
  const stop = toSend.length < wanted.length ? quota.refusal(wanted.length) : null;

  try {
    const next = stop ? undefined : queueNext;
    await sendEmails(
      env,
      db,
      { campaign, template },
      toSend,
      { ...state, suppressed: [] },
      settle,
      now,
      next,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Domain no longer verified, a quota taken by a concurrent send, an email too large: stop here.
    await runBatch(db, settle);
    await pauseFor(db, campaign, error, now);
    return "done";
  }
  if (stop) {
    await pauseFor(db, campaign, stop, now);
    return "done";
  }
  return "continue";
}

/**
 * A campaign batch hands its own emails to the transport: no second trip through the email queue,
 * one claim and about one record for the hundred. What must wait (a deferral) goes on the email
 * queue with its pause; if delivering fails outright they all go there, and the minute sweep
 * finds any the queue did not take.
 */
async function deliverNow(env: Env, rows: EmailRow[], now: number) {
  const ids = rows.map((row) => row.id);
  try {
    const outcomes = await deliverEmails(env, ids);
    const later = outcomes.flatMap((outcome, i) =>
      outcome.kind === "retry"
        ? [
            {
              body: { emailId: ids[i] as string, accountId: rows[i]?.accountId ?? "" } satisfies SendMessage,
              delaySeconds: outcome.delaySeconds,
            },
          ]
        : [],
    );
    if (later.length > 0) await env.EMAIL_QUEUE.sendBatch(later);
  } catch (error) {
    log.warn("campaigns.deliver_failed", { count: ids.length, ...describeError(error) });
    await enqueueEmails(env.EMAIL_QUEUE, rows, now);
  }
}

/** Writes the batch's emails with their claims and settled recipients in one D1 batch, then delivers them. */
async function sendEmails(
  env: Env,
  db: Db,
  { campaign, template }: { campaign: CampaignRow; template: BatchTemplate | null },
  recipients: PendingRecipient[],
  state: SendState,
  settle: ReturnType<typeof settleStatements>,
  now: number,
  queueNext?: () => Promise<void>,
) {
  const touch = sql`UPDATE campaigns SET updated_at = ${now} WHERE id = ${campaign.id}`;
  if (recipients.length === 0) {
    await runBatch(db, [...settle, touch, finishStatement(campaign.id, now)]);
    return;
  }
  const emails = await Promise.all(recipients.map((r) => campaignEmail(env, campaign, r, now, template)));
  const account = state.account as NonNullable<SendState["account"]>;
  const prepared = await prepareEmails({ db, files: env.FILES, account, state, now }, emails, "campaign", 0, {
    keyOf: (_, i) => recipients[i]?.customerId ?? "",
    holds: (email) => claimedBy(campaign.id, email.key, email.id),
  });
  const claims = prepared.rows.map((row, i) => ({
    customerId: recipients[i]?.customerId ?? "",
    emailId: row.id,
  }));
  let claimed: number;
  try {
    await prepared.store();
    const [claim] = await runBatch(db, [
      claimStatement(campaign.id, claims, now),
      ...prepared.statements,
      // Counts only the emails the claim let through: one whose row was not written counts nothing.
      ...acceptedStatements(prepared.rows),
      ...settle,
      touch,
    ]);
    claimed = claim?.meta.changes ?? 0;
  } catch (error) {
    await prepared.abort();
    throw error;
  }
  // Another run claimed these recipients first: their emails were not written; give the quota back.
  if (claimed === 0)
    await prepared.abort().catch((e: unknown) => log.warn("campaigns.release_failed", describeError(e)));
  else {
    await queueNext?.();
    await deliverNow(env, prepared.rows as EmailRow[], now);
  }
}
