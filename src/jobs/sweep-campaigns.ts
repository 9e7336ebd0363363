import type { Db } from "../db/client";
import { queueBatch } from "../features/campaigns/campaign-moves";
import { dueScheduled, stalledSending } from "../features/campaigns/campaigns.repo";
import { startSending } from "../features/campaigns/recipients.repo";

/** A sending campaign no batch touched for this long lost its chain of batch messages. */
const STALLED_AFTER_MS = 60_000;
const MAX_PER_RUN = 50;

/**
 * The minute sweep of campaigns: scheduled ones whose time has come start (recipient rows, then
 * the first batch), and sending ones whose batches stopped get one again. A batch that finds its
 * recipients claimed sends nothing, so a second chain never sends anyone twice.
 */
export async function sweepCampaigns(db: Db, queue: Queue, now: number) {
  const [due, stalled] = await Promise.all([
    dueScheduled(db, now, MAX_PER_RUN),
    stalledSending(db, now - STALLED_AFTER_MS, MAX_PER_RUN),
  ]);
  let started = 0;
  for (const campaign of due) {
    if (await startSending(db, campaign.accountId, campaign.id, now)) {
      started++;
      await queueBatch(queue, campaign.id, campaign.accountId);
    }
  }
  for (const campaign of stalled) await queueBatch(queue, campaign.id, campaign.accountId);
  return { started, resumed: stalled.length };
}
