import { z } from "@hono/zod-openapi";
import { createDb } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { homesOf, LEGACY_SHARD } from "../db/directory/workspaces";
import { envFor } from "../db/shards";
import { sendCampaignRun } from "../features/campaigns/send-run";
import { announceEmailEventsSince } from "../features/email-webhooks/announce";
import { eventIdMark } from "../features/email-webhooks/fact-events";
import { deliverEmails } from "../features/emails/deliver";
import {
  isTrackingFact,
  recordLater,
  type TrackingFact,
  TrackingFactSchema,
} from "../features/tracking/tracking-later";
import { describeError, log } from "../lib/logger";
import { MOVING_RETRY_SECONDS } from "../lib/workspace-moving";

/**
 * `accountId` names the workspace, whose shard the directory names; a message queued before it
 * carried one is the first shard's, where every workspace then lived.
 */
const SendMessageSchema = z.object({ emailId: z.string().regex(/^eml_/), accountId: z.string().optional() });
/** A campaign's next batch of recipients (see features/campaigns/send-batch.ts). */
const CampaignBatchSchema = z.object({
  campaignId: z.string().regex(/^cmp_/),
  accountId: z.string().optional(),
});

/** Sends the campaign's next batches (see `sendCampaignRun`); the message is acked once they are. */
async function consumeCampaignBatch(
  message: Message<unknown>,
  campaign: { campaignId: string; accountId?: string | undefined },
  env: Env,
) {
  const { campaignId, accountId } = campaign;
  try {
    await sendCampaignRun(env, campaignId, accountId);
    message.ack();
  } catch (error) {
    log.error("campaigns.batch_error", { campaign_id: campaignId, ...describeError(error) });
    message.retry({ delaySeconds: 30 });
  }
}

const isCampaignMessage = (body: unknown) =>
  typeof body === "object" && body !== null && "campaignId" in body;

interface Send {
  message: Message<unknown>;
  emailId: string;
}

/**
 * Sends the batch's emails together, shard by shard (one D1 round trip per step for all of a
 * shard's, see `deliverEmails`), and its campaign batches alongside; a message is acked once its
 * email is settled. The workspaces' shards come from the directory (one read for all the batch's
 * workspaces the isolate has not cached; none when it has).
 */
export async function consumeEmails(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  // The email event webhooks' events these sends write are made in SQL: announced by their ids' range.
  const mark = eventIdMark();
  const sends: Array<Send & { accountId?: string | undefined }> = [];
  const campaigns: Array<{ message: Message<unknown>; campaignId: string; accountId?: string | undefined }> =
    [];
  const facts: Array<{ message: Message<unknown> } & TrackingFact> = [];
  for (const message of batch.messages) {
    const fact = isTrackingFact(message.body) ? TrackingFactSchema.safeParse(message.body) : null;
    if (fact?.success) {
      facts.push({ message, ...fact.data });
      continue;
    }
    // Most messages are emails: a zod refusal builds an error object, so it is not tried first.
    const campaign = isCampaignMessage(message.body) ? CampaignBatchSchema.safeParse(message.body) : null;
    if (campaign?.success) {
      campaigns.push({ message, ...campaign.data });
      continue;
    }
    const parsed = SendMessageSchema.safeParse(message.body);
    if (parsed.success) sends.push({ message, ...parsed.data });
    else {
      log.warn("emails.malformed_message", { message_id: message.id });
      message.ack();
    }
  }
  const accounts = [...sends, ...campaigns, ...facts].flatMap((m) => (m.accountId ? [m.accountId] : []));
  const homes = accounts.length > 0 ? await homesOf(directoryDb(env), accounts) : new Map();
  const shardOf = (accountId: string | undefined) =>
    (accountId && homes.get(accountId)?.shard) || LEGACY_SHARD;
  // A workspace being moved takes no writes: its messages come back once the move is over.
  const moving = (m: { message: Message<unknown>; accountId?: string | undefined }) => {
    if (!(m.accountId && homes.get(m.accountId)?.frozen)) return false;
    m.message.retry({ delaySeconds: MOVING_RETRY_SECONDS });
    return true;
  };
  const byShard = new Map<string, Send[]>();
  for (const send of sends) {
    if (moving(send)) continue;
    const shard = shardOf(send.accountId);
    byShard.set(shard, [...(byShard.get(shard) ?? []), send]);
  }
  const campaignsNow = campaigns.filter((c) => !moving(c));
  const factsNow = facts.filter((f) => !moving(f));
  await Promise.all([
    ...campaignsNow.map((c) => consumeCampaignBatch(c.message, c, envFor(env, shardOf(c.accountId)))),
    ...[...byShard].map(([shard, group]) => sendEmails(group, envFor(env, shard))),
    ...factsNow.map((f) => recordFact(f, envFor(env, shardOf(f.accountId)))),
  ]);
  const touched = new Set([
    ...byShard.keys(),
    ...campaignsNow.map((c) => shardOf(c.accountId)),
    ...factsNow.map((f) => shardOf(f.accountId)),
  ]);
  for (const shard of touched) announceEmailEventsSince(envFor(env, shard).DB, envFor(env, shard), mark, ctx);
}

/** An open or click that waited out its workspace's move (tracking-later.ts), recorded now. */
async function recordFact(fact: { message: Message<unknown> } & TrackingFact, env: Env) {
  try {
    await recordLater(createDb(env.DB), fact);
    fact.message.ack();
  } catch (error) {
    log.error("tracking.later_failed", { email_id: fact.emailId, ...describeError(error) });
    fact.message.retry({ delaySeconds: 30 });
  }
}

async function sendEmails(sends: Send[], env: Env) {
  if (sends.length === 0) return;
  try {
    const outcomes = await deliverEmails(
      env,
      sends.map((s) => s.emailId),
    );
    for (const [i, { message }] of sends.entries()) {
      const outcome = outcomes[i];
      if (outcome?.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
      else message.ack();
    }
  } catch (error) {
    log.error("emails.delivery_error", {
      email_ids: sends.map((s) => s.emailId).join(","),
      ...describeError(error),
    });
    for (const { message } of sends) message.retry({ delaySeconds: 30 });
  }
}
