import type { Db } from "../db/client";
import { dueEmails } from "../features/emails/emails.repo";
import type { SendMessage } from "../features/emails/enqueue";
import { recoverExpiredClaims } from "../features/emails/recover-claims.repo";

/** A queued email nobody took for this long is handed to the queue again. */
const STALE_AFTER_MS = 60_000;
const MAX_PER_RUN = 5_000;

/**
 * The minute sweep: scheduled emails whose time has come (the queue only carries delays up to
 * 12 h) and queued emails whose message was lost go (back) to the send queue. Sending twice is
 * impossible: delivery claims the email first. Emails whose claim ran out (the sender died) are
 * taken back first: queued again when their message never reached the transport, closed when it
 * may have.
 */
export async function sweepEmails(db: Db, queue: Queue, now: number): Promise<number> {
  const recovered = await recoverExpiredClaims(db, now);
  const due = await dueEmails(db, now, now - STALE_AFTER_MS, MAX_PER_RUN);
  const byId = new Map([...recovered, ...due].map((email) => [email.id, email.accountId]));
  const messages = [...byId].map(([emailId, accountId]) => ({
    body: { emailId, accountId } satisfies SendMessage,
  }));
  for (let i = 0; i < messages.length; i += 100) await queue.sendBatch(messages.slice(i, i + 100));
  return messages.length;
}
