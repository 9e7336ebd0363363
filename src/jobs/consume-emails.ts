import { z } from "@hono/zod-openapi";
import { sendCampaignRun } from "../features/campaigns/send-run";
import { announceEmailEventsSince } from "../features/email-webhooks/announce";
import { eventIdMark } from "../features/email-webhooks/fact-events";
import { deliverEmails } from "../features/emails/deliver";
import { describeError, log } from "../lib/logger";

const SendMessageSchema = z.object({ emailId: z.string().regex(/^eml_/) });
/** A campaign's next batch of recipients (see features/campaigns/send-batch.ts). */
const CampaignBatchSchema = z.object({ campaignId: z.string().regex(/^cmp_/) });

/** Sends the campaign's next batches (see `sendCampaignRun`); the message is acked once they are. */
async function consumeCampaignBatch(message: Message<unknown>, campaignId: string, env: Env) {
  try {
    await sendCampaignRun(env, campaignId);
    message.ack();
  } catch (error) {
    log.error("campaigns.batch_error", { campaign_id: campaignId, ...describeError(error) });
    message.retry({ delaySeconds: 30 });
  }
}

const isCampaignMessage = (body: unknown) =>
  typeof body === "object" && body !== null && "campaignId" in body;

/**
 * Sends the batch's emails together (one D1 round trip per step for all of them, see
 * `deliverEmails`) and its campaign batches alongside; a message is acked once its email is settled.
 */
export async function consumeEmails(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  // The email event webhooks' events these sends write are made in SQL: announced by their ids' range.
  const mark = eventIdMark();
  const sends: Array<{ message: Message<unknown>; emailId: string }> = [];
  const campaigns: Promise<void>[] = [];
  for (const message of batch.messages) {
    // Most messages are emails: a zod refusal builds an error object, so it is not tried first.
    const campaign = isCampaignMessage(message.body) ? CampaignBatchSchema.safeParse(message.body) : null;
    if (campaign?.success) {
      campaigns.push(consumeCampaignBatch(message, campaign.data.campaignId, env));
      continue;
    }
    const parsed = SendMessageSchema.safeParse(message.body);
    if (parsed.success) sends.push({ message, emailId: parsed.data.emailId });
    else {
      log.warn("emails.malformed_message", { message_id: message.id });
      message.ack();
    }
  }
  await Promise.all([...campaigns, sendEmails(sends, env)]);
  announceEmailEventsSince(env.DB, env, mark, ctx);
}

async function sendEmails(sends: Array<{ message: Message<unknown>; emailId: string }>, env: Env) {
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
