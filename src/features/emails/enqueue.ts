import { describeError, log } from "../../lib/logger";
import type { EmailRow } from "./emails.repo";

/** Queues accept delays of up to 12 hours; later sends wait for the minute sweep. */
const MAX_QUEUE_DELAY_S = 12 * 3600;

export interface SendMessage {
  emailId: string;
  /** The email's workspace: the consumer finds its shard through the directory. */
  accountId: string;
}

/**
 * Hands due (and soon due) emails to the send queue. A failed send is only logged: the minute
 * sweep finds any email the queue did not take, and the claim keeps it from going out twice.
 */
export async function enqueueEmails(queue: Queue, rows: EmailRow[], now: number): Promise<void> {
  const messages = rows.flatMap((row) => {
    const delay = row.scheduledAt ? Math.ceil((row.scheduledAt - now) / 1000) : 0;
    if (delay > MAX_QUEUE_DELAY_S) return [];
    return [
      {
        body: { emailId: row.id, accountId: row.accountId } satisfies SendMessage,
        ...(delay > 0 ? { delaySeconds: delay } : {}),
      },
    ];
  });
  for (let i = 0; i < messages.length; i += 100) {
    try {
      await queue.sendBatch(messages.slice(i, i + 100));
    } catch (error) {
      log.warn("emails.enqueue_failed", {
        count: messages.length,
        ...describeError(error),
      });
    }
  }
}
