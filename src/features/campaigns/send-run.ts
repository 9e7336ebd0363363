import { queueBatch } from "./campaign-moves";
import { sendCampaignBatch } from "./send-batch";

/**
 * Batches of 100 one queue message sends before handing the rest to the next message: about a
 * thousand emails, a few seconds of work, far inside a consumer's limits, while a queue hop per
 * batch cost the wait of the queue's batch window (a second locally) a hundred times per 10,000.
 */
export const BATCHES_PER_MESSAGE = 10;

/**
 * Sends up to `BATCHES_PER_MESSAGE` batches of a campaign, each started as soon as the one before
 * has written its emails, so one batch is prepared (recipients, checks, rows) while the one before
 * is delivered: at most two at once, each with its own claims, so none mails anyone twice. When
 * more remain after the last, the next batch is queued as soon as that last one is written (and
 * in any case before this resolves); a failure rejects, and the queue retries the message, whose
 * batches then start from what is still pending.
 */
export async function sendCampaignRun(
  env: Env,
  campaignId: string,
  accountId: string | undefined,
): Promise<void> {
  const runs: Promise<void>[] = [];
  const start = (index: number): Promise<void> => {
    let followed = false;
    const follow = async () => {
      if (followed) return;
      followed = true;
      if (index + 1 < BATCHES_PER_MESSAGE) {
        const next = start(index + 1);
        next.catch(() => {}); // Awaited below; this only keeps an early failure from being "unhandled".
        runs.push(next);
      } else await queueBatch(env.EMAIL_QUEUE, campaignId, accountId);
    };
    return sendCampaignBatch(env, campaignId, Date.now(), follow).then(async (outcome) => {
      // A batch that wrote no email (all its recipients skipped, or taken by another run) is
      // followed once it is done.
      if (outcome === "continue") await follow();
    });
  };
  runs.push(start(0));
  // `runs` grows while it is awaited (each batch adds the next); every batch is waited for, even
  // after one failed, so none is cut off when the message ends.
  let failure: { error: unknown } | undefined;
  for (let i = 0; i < runs.length; i++) {
    try {
      await runs[i];
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
