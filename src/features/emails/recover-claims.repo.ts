import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import { LEASE_MS } from "./delivery.repo";

/** What the sweep says of a recipient handed to the transport by a sender that then stopped. */
export const UNKNOWN_OUTCOME =
  "The sender stopped after handing the message to the transport, so whether it was accepted is unknown; it was not sent again, so that no recipient gets it twice.";

/** What the sweep says of an email it closes whose sender stopped with nobody left to try. */
export const STOPPED_OUTCOME =
  "The sender stopped before recording the end of its attempt; every recipient had been answered or handed to the transport, so nothing was sent again.";

/**
 * Takes back the emails whose claim ran out (their sender died). Each recipient it had handed to
 * the transport without an answer becomes `unknown` and is never sent again; the others keep their
 * state. An email with recipients still open (never tried, or deferred with tries left) goes back
 * to `queued` (answered with its workspace, to be queued again), due at once when one was never tried, else when the
 * first deferred one is; one with none left is closed, `sent` if the transport accepted it for
 * someone, else `failed`, its campaign recipient settled.
 */
export async function recoverExpiredClaims(
  db: Db,
  now: number,
): Promise<Array<{ id: string; accountId: string }>> {
  // Unqualified `seq` is the email's (recipients have none): listeners read these conditions over
  // `emails` under other aliases.
  const expired = sql`status = 'sending' AND coalesce(lease_until, updated_at + ${LEASE_MS}) < ${now}`;
  const openOf = (state: string) =>
    sql`SELECT 1 FROM email_recipients r WHERE r.email_seq = seq AND r.state = ${state}`;
  const closing = sql`${expired} AND NOT EXISTS (${openOf("pending")}) AND NOT EXISTS (${openOf("deferred")})`;
  const lostUnknown = sql`EXISTS (SELECT 1 FROM email_recipients r WHERE r.email_seq = seq
    AND r.state = 'unknown' AND r.response = ${UNKNOWN_OUTCOME})`;
  const results = await runBatch(db, [
    sql`UPDATE email_recipients SET state = 'unknown', response = ${UNKNOWN_OUTCOME}
        WHERE state = 'sending' AND email_seq IN (SELECT seq FROM emails WHERE ${expired})`,
    sql`INSERT INTO email_events (email_seq, type, detail, created_at)
        SELECT seq, CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END,
          CASE WHEN ${lostUnknown} THEN ${UNKNOWN_OUTCOME} ELSE ${STOPPED_OUTCOME} END, ${now}
        FROM emails WHERE ${closing}`,
    ...deliveryOutcomes.recovered(closing, now),
    sql`UPDATE emails SET
          status = CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END,
          last_event = CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END,
          last_response = CASE WHEN ${lostUnknown} THEN ${UNKNOWN_OUTCOME} ELSE ${STOPPED_OUTCOME} END,
          lease_until = NULL, last_event_at = ${now}, updated_at = ${now}
        WHERE ${closing}`,
    sql`UPDATE emails SET status = 'queued', lease_until = NULL, updated_at = ${now},
          next_attempt_at = CASE WHEN EXISTS (${openOf("pending")}) THEN NULL
            ELSE (SELECT min(r.retry_at) FROM email_recipients r WHERE r.email_seq = seq AND r.state = 'deferred') END
        WHERE ${expired}
        RETURNING id, account_id`,
  ]);
  return ((results.at(-1)?.results ?? []) as Array<{ id: string; account_id: string }>).map((r) => ({
    id: r.id,
    accountId: r.account_id,
  }));
}
