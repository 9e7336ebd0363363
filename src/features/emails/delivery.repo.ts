import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { emails } from "../../db/schema";
import { mayActSql } from "../../lib/workspace-gate";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import type { EmailRow, NewEmailRow } from "./emails.repo";
import { unshareResponses } from "./shared-response";

/**
 * How long a claim lasts. Building a message and handing it over take seconds; a sender that has
 * not finished by then died (an evicted Worker, a crash), and the minute sweep takes the email back,
 * so a crashed email is settled within the lease plus a minute (at most 2¼ minutes).
 */
export const LEASE_MS = 75_000;
/**
 * An email is handed off only while at least this much of its lease is left: the server's answer
 * to the final dot (30 s at most, the SMTP client's per-command deadline) and the record after it.
 */
export const TRANSPORT_BUDGET_MS = 40_000;
/** The transport must have answered this long before the lease ends, so its outcome can be written. */
export const RECORD_MARGIN_MS = 5_000;

/**
 * Takes a due email for sending with a lease. The status test makes this the one place where an
 * email can start going out: a second queue delivery, or the sweep's copy, finds it taken.
 * `attempts` (incremented here) names this claim in every later write. A suspended workspace's
 * scheduled email is not taken: it stays scheduled until reinstated (lib/workspace-gate.ts).
 */
export async function claimEmail(db: Db, id: string, now: number): Promise<EmailRow | null> {
  const rows = await claimQuery(db, id, now);
  return rows[0] ?? null;
}

export function claimQuery(db: Db, id: string, now: number) {
  return db
    .update(emails)
    .set({
      status: "sending",
      attempts: sql`${emails.attempts} + 1`,
      leaseUntil: now + LEASE_MS,
      updatedAt: now,
    })
    .where(
      and(
        eq(emails.id, id),
        inArray(emails.status, ["queued", "scheduled"]),
        or(eq(emails.status, "queued"), mayActSql(emails.accountId)),
        lte(sql`coalesce(${emails.scheduledAt}, 0)`, now),
        lte(sql`coalesce(${emails.nextAttemptAt}, 0)`, now),
      ),
    )
    .returning();
}

/**
 * Marks the moment the message goes to the transport, only while this claim still holds with time
 * to spare. From here on a lost claim is never sent again: the transport may have accepted it.
 */
export async function handOff(db: Db, email: EmailRow, now: number): Promise<boolean> {
  const results = await runBatch(db, handOffStatements(db, email, now));
  return results.at(-1)?.results.length === 1;
}

/**
 * The hand-off with what counts it (the report's first one), in one batch, under the hand-off's
 * own condition; the last statement answers the id when the claim still holds.
 */
export function handOffStatements(db: Db, email: EmailRow, now: number): Statement[] {
  const claim = sql`status = 'sending' AND attempts = ${email.attempts} AND lease_until > ${now + TRANSPORT_BUDGET_MS}`;
  return [...deliveryOutcomes.handedOff(email.id, claim, now), handOffQuery(db, email, now)];
}

export function handOffQuery(db: Db, email: EmailRow, now: number) {
  return db
    .update(emails)
    .set({ handoffAttempt: email.attempts })
    .where(
      and(
        eq(emails.id, email.id),
        eq(emails.status, "sending"),
        eq(emails.attempts, email.attempts),
        sql`${emails.leaseUntil} > ${now + TRANSPORT_BUDGET_MS}`,
      ),
    )
    .returning({ id: emails.id });
}

/** The recipients this attempt sends to: all on a first attempt, else those not yet accepted or refused. */
export async function openRecipients(db: Db, email: EmailRow, all: string[]): Promise<string[]> {
  if (email.attempts === 1) return all;
  const rows = await db.all<{ address: string }>(sql`
    SELECT address FROM email_recipients
    WHERE email_seq = ${email.seq} AND state IN ('pending', 'deferred')`);
  const open = new Set(rows.map((r) => r.address));
  return all.filter((address) => open.has(address));
}

export interface RecipientOutcome {
  address: string;
  state: "accepted" | "deferred" | "rejected";
  response: string;
}

const ownedBy = (email: EmailRow) =>
  sql`EXISTS (SELECT 1 FROM emails WHERE id = ${email.id} AND status = 'sending' AND attempts = ${email.attempts})`;

/**
 * The statements that record how this attempt ended, for one batch: the recipients' states, the
 * storage the built message takes, then the email and its event. Each is fenced by the claim,
 * so an attempt whose email was taken back writes nothing.
 */
export function finishStatements(
  db: Db,
  email: EmailRow,
  outcomes: RecipientOutcome[],
  changes: Partial<NewEmailRow> & { lastEvent: string; storedBytes?: number },
  detail: string | null,
  now: number,
): Statement[] {
  // What counts the attempt's end (a campaign's stats, the report's rollups) moves with it,
  // fenced by the same claim.
  const statements: Statement[] = [
    ...(email.campaignId
      ? deliveryOutcomes.delivered(email.id, changes.status ?? "", ownedBy(email), now)
      : []),
    ...deliveryOutcomes.ended(email.id, changes.status ?? "", changes.sentAt != null, ownedBy(email), now),
    ...(outcomes.length > 0 ? deliveryOutcomes.recipients(email.id, outcomes, ownedBy(email), now) : []),
  ];
  for (const state of ["accepted", "deferred", "rejected"] as const) {
    const group = outcomes.filter((o) => o.state === state);
    if (group.length === 0) continue;
    statements.push(sql`
      UPDATE email_recipients SET state = ${state},
        response = (SELECT j.value ->> 'response' FROM json_each(${JSON.stringify(group)}) AS j WHERE j.value ->> 'address' = email_recipients.address)
      WHERE email_seq = ${email.seq}
        AND address IN (SELECT j.value ->> 'address' FROM json_each(${JSON.stringify(group)}) AS j)
        AND ${ownedBy(email)}`);
  }
  if (changes.storedBytes !== undefined) {
    statements.push(sql`
      UPDATE account_usage
      SET storage_bytes = max(storage_bytes + ${changes.storedBytes} - (SELECT stored_bytes FROM emails WHERE id = ${email.id}), 0)
      WHERE account_id = ${email.accountId} AND ${ownedBy(email)}`);
  }
  statements.push(
    sql`INSERT INTO email_events (email_seq, type, detail, created_at)
        SELECT ${email.seq}, ${changes.lastEvent}, ${detail}, ${now} WHERE ${ownedBy(email)}`,
    db
      .update(emails)
      .set({ ...changes, leaseUntil: null, lastEventAt: now, updatedAt: now })
      .where(and(eq(emails.id, email.id), eq(emails.status, "sending"), eq(emails.attempts, email.attempts))),
    ...unshareResponses(email.seq),
  );
  return statements;
}

/**
 * Ends an attempt that never reached the transport (the message could not be built, or the
 * workspace is suspended: `response` then says so); `storedBytes` is what the email still keeps in
 * R2, so the storage reserved for an unbuilt message is given back.
 */
export function failBeforeHandoffStatements(
  db: Db,
  email: EmailRow,
  reason: string,
  storedBytes: number,
  now: number,
  response = `Could not build the message: ${reason}`,
) {
  return finishStatements(
    db,
    email,
    [],
    {
      status: "failed",
      lastEvent: "failed",
      lastResponse: response,
      storedBytes,
    },
    reason,
    now,
  );
}

/**
 * Gives a claim back before the hand-off, after a passing failure of ours (R2, D1): the email is
 * `queued` again and not due before `retryAt`, so the queue's retry finds it ready.
 */
export function releaseClaimStatements(
  db: Db,
  email: EmailRow,
  reason: string,
  retryAt: number,
  now: number,
) {
  return finishStatements(
    db,
    email,
    [],
    { status: "queued", lastEvent: "deferred", lastResponse: reason, nextAttemptAt: retryAt },
    reason,
    now,
  );
}

/** What the sweep says of an attempt lost after handing its message over. */
export const UNKNOWN_OUTCOME =
  "The sender stopped after handing the message to the transport, so whether it was accepted is unknown; it was not sent again, so that no recipient gets it twice.";

/**
 * Takes back the emails whose claim ran out. One that never reached the transport goes back to
 * `queued` (answered, to be queued again); one that did is closed: `sent` if an earlier attempt
 * reached someone, else `failed`, its open recipients `unknown`, its campaign recipient settled.
 */
export async function recoverExpiredClaims(db: Db, now: number): Promise<string[]> {
  const expired = sql`status = 'sending' AND coalesce(lease_until, updated_at + ${LEASE_MS}) < ${now}`;
  const handedOff = sql`${expired} AND handoff_attempt = attempts`;
  const results = await runBatch(db, [
    sql`INSERT INTO email_events (email_seq, type, detail, created_at)
        SELECT seq, CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END, ${UNKNOWN_OUTCOME}, ${now}
        FROM emails WHERE ${handedOff}`,
    sql`UPDATE email_recipients SET state = 'unknown', response = ${UNKNOWN_OUTCOME}
        WHERE state IN ('pending', 'deferred') AND email_seq IN (SELECT seq FROM emails WHERE ${handedOff})`,
    ...deliveryOutcomes.recovered(handedOff, now),
    sql`UPDATE emails SET
          status = CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END,
          last_event = CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END,
          last_response = ${UNKNOWN_OUTCOME}, lease_until = NULL, last_event_at = ${now}, updated_at = ${now}
        WHERE ${handedOff}`,
    sql`UPDATE emails SET status = 'queued', lease_until = NULL, updated_at = ${now}
        WHERE ${expired} AND handoff_attempt IS NOT attempts
        RETURNING id`,
  ]);
  return ((results.at(-1)?.results ?? []) as Array<{ id: string }>).map((r) => r.id);
}
