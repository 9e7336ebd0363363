import { type SQL, sql } from "drizzle-orm";
import type { DeliveryOutcomeListener, SuppressedSend } from "../../mail/delivery-outcomes";
import { SYSTEM_SOURCE } from "../emails/system-mail";

/** The email report's counters, as named in the `email_daily` table. */
export const EMAIL_COUNTERS = [
  "accepted",
  "sent",
  "delivered",
  "bounced_hard",
  "bounced_soft",
  "complained",
  "opened",
  "clicked",
  "suppressed",
  "failed",
] as const;
export type EmailCounter = (typeof EMAIL_COUNTERS)[number];

export const DAY_MS = 86_400_000;
/** A UTC day as the rollups key it: whole days since the epoch. */
export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * Adds one to `counter` on the day of `now` for every email `which` (a condition on `emails`)
 * matches, under each dimension it is reported by: the workspace (''), its tags (`t:name=value`),
 * the inbox of the ticket it replies in (`i:inbox`), and the template and version it was built
 * from (`p:tpl_...`, `v:tpv_...`; an email without a template is in neither). The caller's `which` carries the fact's
 * own guard (the claim, the first open...), so a redelivered message or a retry adds nothing.
 * The service's own mail is no workspace's and is not counted. D1 allows at most five terms in a
 * compound SELECT (a sixth is refused, measured): these five dimensions are all one statement holds.
 */
export function countEmails(counter: EmailCounter, which: SQL, now: number): SQL {
  const column = sql.identifier(counter);
  return sql`
    WITH e AS (SELECT id, seq, account_id, template_id, template_version_id FROM emails
      WHERE ${which} AND source != ${SYSTEM_SOURCE})
    INSERT INTO email_daily (account_id, dim, day, ${column})
    SELECT account_id, dim, ${utcDay(now)}, count(DISTINCT id) FROM (
      SELECT e.id, e.account_id, '' AS dim FROM e
      UNION ALL
      SELECT e.id, e.account_id, 't:' || t.name || '=' || t.value FROM e JOIN email_tags t ON t.email_seq = e.seq
      UNION ALL
      SELECT e.id, e.account_id, 'i:' || k.inbox_id FROM e
        JOIN messages m ON m.email_id = e.id JOIN tickets k ON k.id = m.ticket_id
      UNION ALL
      SELECT e.id, e.account_id, 'p:' || e.template_id FROM e WHERE e.template_id IS NOT NULL
      UNION ALL
      SELECT e.id, e.account_id, 'v:' || e.template_version_id FROM e WHERE e.template_version_id IS NOT NULL
    ) GROUP BY account_id, dim
    ON CONFLICT (account_id, dim, day) DO UPDATE SET ${column} = ${column} + excluded.${column}`;
}

/**
 * Adds to `suppressed` on the day of `now` one per refused send `when` holds for, under the
 * dimensions it would have had: the workspace, its tags, the inbox of its ticket, its template
 * and version. No email row
 * exists to join, so the sends travel as one JSON parameter.
 */
export function countSuppressed(
  accountId: string,
  sends: SuppressedSend[],
  when: (send: SQL) => SQL,
  now: number,
): SQL {
  return sql`
    WITH s AS (SELECT sent.key AS k, sent.value AS v FROM json_each(${JSON.stringify(sends)}) AS sent
      WHERE ${when(sql`sent.value`)})
    INSERT INTO email_daily (account_id, dim, day, suppressed)
    SELECT ${accountId}, dim, ${utcDay(now)}, count(DISTINCT k) FROM (
      SELECT s.k, '' AS dim FROM s
      UNION ALL
      SELECT s.k, 't:' || (t.value ->> '$.name') || '=' || (t.value ->> '$.value') FROM s, json_each(s.v, '$.tags') t
      UNION ALL
      SELECT s.k, 'i:' || (s.v ->> '$.inboxId') FROM s WHERE s.v ->> '$.inboxId' IS NOT NULL
      UNION ALL
      SELECT s.k, 'p:' || (s.v ->> '$.templateId') FROM s WHERE s.v ->> '$.templateId' IS NOT NULL
      UNION ALL
      SELECT s.k, 'v:' || (s.v ->> '$.templateVersionId') FROM s WHERE s.v ->> '$.templateVersionId' IS NOT NULL
    ) GROUP BY dim
    ON CONFLICT (account_id, dim, day) DO UPDATE SET suppressed = suppressed + excluded.suppressed`;
}

const BOUNCE_COUNTERS = { hard: "bounced_hard", soft: "bounced_soft", complaint: "complained" } as const;

/**
 * The report's listener on the delivery outcome hook. Each fact counts once, by the condition
 * that makes its own write happen once:
 * - accepted: the email row exists (the batch that creates it runs once);
 * - sent: the first hand-off to the transport (`handoff_attempt` still unset), under the hand-off's claim;
 * - delivered: the transport accepted it for someone the first time (`sent_at` still unset), under
 *   the claim (an attempt retried for deferred recipients included);
 * - failed: an attempt ended `failed` under its claim, or the sweep closed it unsent;
 * - bounced hard/soft, complained: per email, its first such row in `bounces` (whichever recipient):
 *   the same unit as `sent` and `delivered`, so the rates over them stay rates;
 * - opened, clicked: the email's first open or click (unique per email: the pixel and links
 *   are per email, not per recipient);
 * - suppressed: a send refused for a suppressed recipient, under the refusal's own guard (the
 *   request that was refused, once, after its batch; a campaign recipient still pending; an
 *   automation step not yet run).
 */
export const emailRollups: DeliveryOutcomeListener = {
  accepted: (emailIds, now) =>
    emailIds.length === 0
      ? []
      : [countEmails("accepted", sql`id IN (SELECT value FROM json_each(${JSON.stringify(emailIds)}))`, now)],
  handedOff: (claimed, now) => [countEmails("sent", sql`${claimed} AND handoff_attempt IS NULL`, now)],
  // An attempt that reached someone while others were deferred is retried (`queued`): the email
  // is delivered from that attempt on, whatever the last one says.
  ended: (claimed, status, reached, now) => {
    if (reached) return [countEmails("delivered", sql`${claimed} AND sent_at IS NULL`, now)];
    if (status === "failed") return [countEmails("failed", claimed, now)];
    return [];
  },
  recipients: () => [],
  bounced: (emailId, _address, kind, now) => [
    countEmails(
      BOUNCE_COUNTERS[kind],
      sql`id = ${emailId} AND NOT EXISTS (SELECT 1 FROM bounces b WHERE b.email_id = ${emailId} AND b.kind = ${kind})`,
      now,
    ),
  ],
  delivered: () => [],
  recovered: (handedOff, now) => [countEmails("failed", sql`${handedOff} AND sent_at IS NULL`, now)],
  firstOpen: (emailId, now) => [countEmails("opened", sql`id = ${emailId} AND first_opened_at IS NULL`, now)],
  firstClick: (emailId, now) => [
    countEmails("clicked", sql`id = ${emailId} AND first_clicked_at IS NULL`, now),
  ],
  firstBounce: () => [],
  suppressed: (accountId, sends, when, now) =>
    sends.length === 0 ? [] : [countSuppressed(accountId, sends, when, now)],
};
