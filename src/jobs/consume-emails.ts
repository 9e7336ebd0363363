import { z } from "@hono/zod-openapi";
import { queueBatch } from "../features/campaigns/campaign-moves";
import { sendCampaignBatch } from "../features/campaigns/send-batch";
import { deliverEmail } from "../features/emails/deliver";
import { describeError, log } from "../lib/logger";

const SendMessageSchema = z.object({ emailId: z.string().regex(/^eml_/) });
/** A campaign's next batch of recipients (see features/campaigns/send-batch.ts). */
const CampaignBatchSchema = z.object({ campaignId: z.string().regex(/^cmp_/) });

/** Sends the campaign's next batch; when more remain, the following batch is queued before the ack. */
async function consumeCampaignBatch(message: Message<unknown>, campaignId: string, env: Env) {
  try {
    if ((await sendCampaignBatch(env, campaignId)) === "continue")
      await queueBatch(env.EMAIL_QUEUE, campaignId);
    message.ack();
  } catch (error) {
    log.error("campaigns.batch_error", { campaign_id: campaignId, ...describeError(error) });
    message.retry({ delaySeconds: 30 });
  }
}

/** Sends each email of the batch, concurrently; a message is acked once its email is settled. */
export async function consumeEmails(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const campaign = CampaignBatchSchema.safeParse(message.body);
      if (campaign.success) return consumeCampaignBatch(message, campaign.data.campaignId, env);
      const parsed = SendMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        log.warn("emails.malformed_message", { message_id: message.id });
        message.ack();
        return;
      }
      try {
        const outcome = await deliverEmail(env, parsed.data.emailId);
        if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
        else message.ack();
      } catch (error) {
        log.error("emails.delivery_error", { email_id: parsed.data.emailId, ...describeError(error) });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}
