import { type SQL, sql } from "drizzle-orm";
import type { DeliveryOutcomeListener } from "../../mail/delivery-outcomes";
import { emailSeqOf } from "../emails/email-keys";

/**
 * The statements other pipelines add to their own batches so that a campaign's stats stay exact:
 * each counter moves in the same transaction as what it counts, and only on the first time
 * (the recipient still `queued`, the email's first open or click, its first bounce). They only
 * read the email by id, so an email of no campaign changes nothing. The email, tracking and bounce
 * code reach them through the delivery outcome hook (src/mail/delivery-outcomes.ts), as `campaignProgress`.
 */

/**
 * Attempts of campaign emails ended (`sent`, `failed` or `bounced`): their recipients leave
 * `queued`, the matching counter moves by as many, and a campaign is `sent` once nobody is left.
 * `claimed` matches the emails under their deliveries' own claims, so an attempt that lost its
 * email writes nothing; the emails of one round of writes that ended alike go together.
 */
export function deliveredStatements(claimed: SQL, status: string, now: number): SQL[] {
  if (status !== "sent" && status !== "failed" && status !== "bounced") return [];
  const state = status === "sent" ? "sent" : "failed";
  const ended = sql`(SELECT id FROM emails WHERE ${claimed} AND campaign_id IS NOT NULL)`;
  const campaignsOf = sql`(SELECT campaign_id FROM emails WHERE ${claimed} AND campaign_id IS NOT NULL)`;
  const settling = sql`(SELECT count(*) FROM campaign_recipients r
    WHERE r.email_id IN ${ended} AND r.state = 'queued' AND r.campaign_id = campaigns.id)`;
  const counters =
    status === "sent"
      ? sql`sent_count = sent_count + ${settling}`
      : status === "bounced"
        ? sql`failed_count = failed_count + ${settling}, bounced_count = bounced_count + ${settling}`
        : sql`failed_count = failed_count + ${settling}`;
  return [
    sql`UPDATE campaigns SET ${counters} WHERE id IN ${campaignsOf}`,
    sql`UPDATE campaign_recipients SET state = ${state}, updated_at = ${now},
          detail = ${status === "sent" ? null : status}
        WHERE email_id IN ${ended} AND state = 'queued'`,
    sql`UPDATE campaigns SET status = 'sent', sent_at = ${now}, updated_at = ${now}
        WHERE status = 'sending' AND id IN ${campaignsOf}
          AND NOT EXISTS (SELECT 1 FROM campaign_recipients
            WHERE campaign_id = campaigns.id AND state IN ('pending', 'queued'))`,
  ];
}

/** Before the email's open is recorded: its campaign counts the first one. */
export const firstOpenStatement = (emailId: string) => sql`
  UPDATE campaigns SET opened_count = opened_count + 1
  WHERE id = (SELECT campaign_id FROM emails WHERE id = ${emailId} AND first_opened_at IS NULL)`;

/** Before the email's click is recorded: its campaign counts the first one. */
export const firstClickStatement = (emailId: string) => sql`
  UPDATE campaigns SET clicked_count = clicked_count + 1
  WHERE id = (SELECT campaign_id FROM emails WHERE id = ${emailId} AND first_clicked_at IS NULL)`;

/**
 * Before a bounce report's event is written: its campaign counts the email's first bounce (one
 * counted when the transport refused it already wrote a `bounced` event).
 */
export const firstBounceStatement = (emailId: string, wentOut: SQL) => sql`
  UPDATE campaigns SET bounced_count = bounced_count + 1
  WHERE id = (SELECT campaign_id FROM emails WHERE id = ${emailId} AND status IN ${wentOut})
    AND NOT EXISTS (SELECT 1 FROM email_events WHERE email_seq = ${emailSeqOf(emailId)} AND type = 'bounced')`;

/**
 * The sweep closes emails whose sender stopped after handing them over (`handedOff`, a condition
 * on `emails`), `sent` when an earlier attempt reached someone, else `failed`. Their campaign
 * recipients settle the same way, counted, and a campaign left with nobody to send is `sent`. To
 * run before the emails' own update, while `handedOff` still matches them.
 */
export function recoveredStatements(handedOff: SQL, now: number): SQL[] {
  const closed = (sent: boolean) =>
    sql`(SELECT id FROM emails WHERE ${handedOff} AND campaign_id IS NOT NULL AND sent_at IS ${sql.raw(sent ? "NOT NULL" : "NULL")})`;
  const settling = (sent: boolean) =>
    sql`(SELECT count(*) FROM campaign_recipients r WHERE r.campaign_id = campaigns.id AND r.state = 'queued'
          AND r.email_id IN ${closed(sent)})`;
  const campaignsOf = sql`(SELECT campaign_id FROM emails WHERE ${handedOff} AND campaign_id IS NOT NULL)`;
  return [
    sql`UPDATE campaigns SET sent_count = sent_count + ${settling(true)}, failed_count = failed_count + ${settling(false)}
        WHERE id IN ${campaignsOf}`,
    sql`UPDATE campaign_recipients SET state = 'sent', detail = NULL, updated_at = ${now}
        WHERE state = 'queued' AND email_id IN ${closed(true)}`,
    sql`UPDATE campaign_recipients SET state = 'failed', detail = 'failed', updated_at = ${now}
        WHERE state = 'queued' AND email_id IN ${closed(false)}`,
    sql`UPDATE campaigns SET status = 'sent', sent_at = ${now}, updated_at = ${now}
        WHERE status = 'sending' AND id IN ${campaignsOf}
          AND NOT EXISTS (SELECT 1 FROM campaign_recipients WHERE campaign_id = campaigns.id AND state IN ('pending', 'queued'))`,
  ];
}

/** The campaigns' listener on the delivery outcome hook, registered by the composition root. */
export const campaignProgress: DeliveryOutcomeListener = {
  accepted: () => [],
  handedOff: () => [],
  ended: () => [],
  recipients: () => [],
  bounced: () => [],
  delivered: deliveredStatements,
  recovered: recoveredStatements,
  firstOpen: (emailId) => [firstOpenStatement(emailId)],
  firstClick: (emailId) => [firstClickStatement(emailId)],
  firstBounce: (emailId, wentOut) => [firstBounceStatement(emailId, wentOut)],
  // A campaign's suppressed recipients are counted where they are settled (settleStatements).
  suppressed: () => [],
};
