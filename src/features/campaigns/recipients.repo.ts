import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { campaignRecipients, customers } from "../../db/schema";

/** A batch takes at most this many recipients: one D1 batch of emails, one Queue send. */
export const BATCH_SIZE = 100;

/**
 * Moves a draft or scheduled campaign to `sending` and writes its recipient rows, in one batch:
 * the members of its groups (groups of its workspace only), each customer once, unsubscribed ones
 * as `skipped`; then `recipients_count` is the number of pending rows. Set-based: one INSERT ...
 * SELECT whatever the number of members, with four bound parameters. A template version given is
 * pinned with the move (one already pinned, when scheduled, stays). Answers whether it moved.
 */
export async function startSending(
  db: Db,
  accountId: string,
  id: string,
  now: number,
  pins: { templateVersionId: string; templateLayoutVersionId: string | null } | null = null,
): Promise<boolean> {
  const [moved] = await db.$client.batch([
    db.$client
      .prepare(
        `UPDATE campaigns SET status = 'sending', started_at = ?1, scheduled_at = NULL, paused_reason = NULL, updated_at = ?1,
           template_version_id = COALESCE(?4, template_version_id),
           template_layout_version_id = CASE WHEN ?4 IS NULL THEN template_layout_version_id ELSE ?5 END
         WHERE id = ?2 AND account_id = ?3 AND status IN ('draft', 'scheduled')`,
      )
      .bind(now, id, accountId, pins?.templateVersionId ?? null, pins?.templateLayoutVersionId ?? null),
    db.$client
      .prepare(
        `INSERT INTO campaign_recipients (campaign_id, customer_id, account_id, email, state, detail, created_at, updated_at)
         SELECT ?2, c.id, c.account_id, c.email,
           CASE WHEN c.unsubscribed THEN 'skipped' ELSE 'pending' END,
           CASE WHEN c.unsubscribed THEN 'unsubscribed' ELSE NULL END, ?1, ?1
         FROM customers c
         WHERE c.account_id = ?3 AND c.id IN (
           SELECT m.customer_id FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id
           WHERE g.account_id = ?3 AND g.id IN (
             SELECT value FROM json_each((SELECT contact_group_ids FROM campaigns WHERE id = ?2))))
           AND EXISTS (SELECT 1 FROM campaigns WHERE id = ?2 AND status = 'sending' AND started_at = ?1)
         ON CONFLICT DO NOTHING`,
      )
      .bind(now, id, accountId),
    db.$client
      .prepare(
        `UPDATE campaigns SET recipients_count =
           (SELECT count(*) FROM campaign_recipients WHERE campaign_id = ?1 AND state = 'pending')
         WHERE id = ?1 AND status = 'sending' AND started_at = ?2`,
      )
      .bind(id, now),
  ]);
  return (moved?.meta.changes ?? 0) > 0;
}

/** The next pending recipients of a campaign, in customer order, with what their variables need. */
export function pendingBatchQuery(db: Db, campaignId: string, limit = BATCH_SIZE) {
  return db
    .select({
      customerId: campaignRecipients.customerId,
      email: campaignRecipients.email,
      name: customers.name,
      unsubscribed: customers.unsubscribed,
      metadata: customers.metadata,
      // A template's `group_name`: the first of the campaign's groups the customer is in (json_each
      // walks the array in order), read only for a campaign with a template, by primary keys.
      groupName: sql<
        string | null
      >`CASE WHEN (SELECT template_id FROM campaigns WHERE id = ${campaignId}) IS NULL
        THEN NULL ELSE (SELECT g.name FROM contact_groups g WHERE g.id = (
          SELECT j.value FROM json_each((SELECT contact_group_ids FROM campaigns WHERE id = ${campaignId})) AS j
          WHERE EXISTS (SELECT 1 FROM contact_group_members m
            WHERE m.group_id = j.value AND m.customer_id = campaign_recipients.customer_id) LIMIT 1)) END`,
    })
    .from(campaignRecipients)
    .innerJoin(customers, eq(customers.id, campaignRecipients.customerId))
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.state, "pending")))
    .orderBy(asc(campaignRecipients.customerId))
    .limit(limit);
}

export type PendingRecipient = Awaited<ReturnType<typeof pendingBatchQuery>>[number];

/**
 * Claims recipients for their emails: pending → queued with the email id, one statement for the
 * whole batch. A row another run claimed first stays as it is, and its email (written only if
 * this claim holds, see `claimedBy`) is not written.
 */
export function claimStatement(
  campaignId: string,
  claims: Array<{ customerId: string; emailId: string }>,
  now: number,
) {
  const json = JSON.stringify(claims.map((c) => ({ c: c.customerId, e: c.emailId })));
  return sql`
    UPDATE campaign_recipients SET state = 'queued', updated_at = ${now},
      email_id = (SELECT j.value ->> 'e' FROM json_each(${json}) AS j WHERE j.value ->> 'c' = campaign_recipients.customer_id)
    WHERE campaign_id = ${campaignId} AND state = 'pending'
      AND customer_id IN (SELECT j.value ->> 'c' FROM json_each(${json}) AS j)`;
}

/** True as the batch runs when this recipient's row was claimed for this email. */
export const claimedBy = (campaignId: string, customerId: string | SQL, emailId: string | SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM campaign_recipients WHERE campaign_id = ${campaignId}
        AND customer_id = ${customerId} AND email_id = ${emailId})`;

/**
 * Settles pending recipients that get no email (suppressed, or unsubscribed since the send
 * began) and counts them, in that order, so that a row counts once whoever moves it.
 */
export function settleStatements(
  campaignId: string,
  customerIds: string[],
  state: "suppressed" | "skipped",
  detail: string,
  now: number,
): Statement[] {
  if (customerIds.length === 0) return [];
  const ids = JSON.stringify(customerIds);
  const pending = sql`campaign_id = ${campaignId} AND state = 'pending'
    AND customer_id IN (SELECT value FROM json_each(${ids}))`;
  const counter =
    state === "suppressed"
      ? sql`suppressed_count = suppressed_count + `
      : sql`recipients_count = recipients_count - `;
  return [
    sql`UPDATE campaigns SET ${counter}(SELECT count(*) FROM campaign_recipients WHERE ${pending})
        WHERE id = ${campaignId}`,
    sql`UPDATE campaign_recipients SET state = ${state}, detail = ${detail}, updated_at = ${now} WHERE ${pending}`,
  ];
}

/**
 * Skips pending recipients a template variable has no value for, each with its own reason in
 * `detail`, and counts them (no longer to send; counted in `missing_variables`), in that order.
 */
export function skipMissingStatements(
  campaignId: string,
  skips: Array<{ customerId: string; detail: string }>,
  now: number,
): Statement[] {
  if (skips.length === 0) return [];
  const json = JSON.stringify(skips.map((s) => ({ c: s.customerId, d: s.detail })));
  const pending = sql`campaign_id = ${campaignId} AND state = 'pending'
    AND customer_id IN (SELECT j.value ->> 'c' FROM json_each(${json}) AS j)`;
  return [
    sql`UPDATE campaigns SET recipients_count = recipients_count - (SELECT count(*) FROM campaign_recipients WHERE ${pending}),
        missing_variables_count = missing_variables_count + (SELECT count(*) FROM campaign_recipients WHERE ${pending})
        WHERE id = ${campaignId}`,
    sql`UPDATE campaign_recipients SET state = 'skipped', updated_at = ${now},
        detail = (SELECT j.value ->> 'd' FROM json_each(${json}) AS j WHERE j.value ->> 'c' = campaign_recipients.customer_id)
        WHERE ${pending}`,
  ];
}

/** A sending campaign with no pending or queued recipient left is `sent`. */
export const finishStatement = (campaignId: string, now: number) => sql`
  UPDATE campaigns SET status = 'sent', sent_at = ${now}, updated_at = ${now}
  WHERE id = ${campaignId} AND status = 'sending'
    AND NOT EXISTS (SELECT 1 FROM campaign_recipients WHERE campaign_id = ${campaignId} AND state IN ('pending', 'queued'))`;

/** A cancelled campaign's recipients that were never sent are skipped: one statement. */
export const skipPendingStatement = (campaignId: string, now: number) => sql`
  UPDATE campaign_recipients SET state = 'skipped', detail = 'cancelled', updated_at = ${now}
  WHERE campaign_id = ${campaignId} AND state = 'pending'`;
