import { and, eq, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { emails } from "../../db/schema";
import { mayActSql } from "../../lib/workspace-gate";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import type { EmailRow } from "./emails.repo";

/**
 * How long a claim lasts. Building a message and handing it over take seconds; a sender that has
 * not finished by then died (an evicted Worker, a crash), and the minute sweep takes the email back,
 * so a crashed email is settled within the lease plus a minute (at most 2¼ minutes).
 */
export const LEASE_MS = 75_000;
/**
 * The transport must have answered this long before the lease ends, so its outcome can be written;
 * every hand-off and recorded outcome renews the lease, so a long attempt keeps its email.
 */
export const RECORD_MARGIN_MS = 5_000;
/**
 * No envelope is begun later than this after the claim (`SMTP_SEND_WINDOW_SECONDS`, 1 to 60, default
 * 50): an attempt makes room for the next emails, and what it did not begin goes out in the next
 * attempt, spending none of its retries.
 */
export function sendWindowMs(env: Pick<Env, "SMTP_SEND_WINDOW_SECONDS">): number {
  const seconds = Number(env.SMTP_SEND_WINDOW_SECONDS);
  return Number.isFinite(seconds) && seconds >= 1 ? Math.min(seconds, 60) * 1000 : 50_000;
}

/**
 * Takes a due email for sending with a lease. The status test makes this the one place where an
 * email can start going out: a second queue delivery, or the sweep's copy, finds it taken.
 * `attempts` (incremented here) names this claim in every later write. A suspended workspace's
 * scheduled email is not taken: it stays scheduled until reinstated (lib/workspace-gate.ts).
 */
export async function claimEmail(db: Db, id: string, now: number): Promise<EmailRow | null> {
  const rows = await claimQuery(db, [id], now);
  return rows[0] ?? null;
}

/**
 * `claimEmail` for several emails in one statement, answering the rows it took (an id given twice
 * is taken once).
 */
export function claimQuery(db: Db, ids: string[], now: number) {
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
        sql`${emails.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        inArray(emails.status, ["queued", "scheduled"]),
        or(eq(emails.status, "queued"), mayActSql(emails.accountId)),
        lte(sql`coalesce(${emails.scheduledAt}, 0)`, now),
        lte(sql`coalesce(${emails.nextAttemptAt}, 0)`, now),
      ),
    )
    .returning();
}

/**
 * Marks these recipients' envelopes handed to the transport (`sending`), only while this claim
 * still holds, and renews the lease. From here on a lost claim never sends them again: the
 * transport may have accepted them, so the sweep makes them `unknown`, while the recipients not
 * handed off stay open and are retried.
 */
export async function handOff(db: Db, email: EmailRow, recipients: string[], now: number): Promise<boolean> {
  const item = { email, recipients, now };
  const results = await runBatch(db, [...handOffCounts([email], now), ...handOffWrites([item])]);
  return heldBy(results.at(-1)).has(email.id);
}

/** One email's envelopes to hand off. */
export interface HandOffItem {
  email: EmailRow;
  recipients: string[];
  now: number;
}

/**
 * What counts the hand-offs of these emails, each under its own claim, in one statement per
 * listener: to come before their writes, while `handoff_attempt` still tells a first hand-off.
 */
export function handOffCounts(handedOff: EmailRow[], now: number): Statement[] {
  return deliveryOutcomes.handedOff(claimedIn(handedOff), now);
}

/**
 * A condition on `emails` matching these emails while each is still under the claim it was read
 * with: `sending`, and its attempt's number. Several emails in one statement, where `ownedBy`
 * fences one. Its columns are unqualified, or qualified by `alias` where the statement reads
 * another table beside the emails.
 */
export function claimedIn(claimed: Array<Pick<EmailRow, "id" | "attempts">>, alias?: string): SQL {
  const claims = JSON.stringify(claimed.map((email) => ({ id: email.id, attempts: email.attempts })));
  const column = (name: string) =>
    alias ? sql`${sql.identifier(alias)}.${sql.identifier(name)}` : sql.identifier(name);
  return sql`${column("status")} = 'sending' AND (${column("id")}, ${column("attempts")}) IN
    (SELECT j.value ->> '$.id', j.value ->> '$.attempts' FROM json_each(${claims}) AS j)`;
}

/**
 * The hand-offs' own writes, each under its email's claim, in two statements for all of them:
 * the recipients `sending`, then the emails' hand-off and lease, which answers the ids whose claim
 * still held (`heldBy`). The claim alone is the condition: the lease is renewed in the same
 * statement, so the answer to the dot and its record have a whole lease, and a sweep that takes
 * the email back changes its status first.
 */
export function handOffWrites(items: HandOffItem[]): Statement[] {
  const handOffs = JSON.stringify(
    items.map(({ email, recipients, now }) => ({
      id: email.id,
      seq: email.seq,
      attempts: email.attempts,
      recipients,
      leaseUntil: now + LEASE_MS,
    })),
  );
  const claimed = stillClaimedBy("h");
  return [
    sql`UPDATE email_recipients SET state = 'sending'
        WHERE (email_seq, address) IN (SELECT h.value ->> '$.seq', a.value
            FROM json_each(${handOffs}) AS h, json_each(h.value, '$.recipients') AS a WHERE ${claimed})
          AND state IN ('pending', 'deferred')`,
    sql`UPDATE emails SET handoff_attempt = h.value ->> '$.attempts', lease_until = h.value ->> '$.leaseUntil'
        FROM json_each(${handOffs}) AS h
        WHERE emails.id = h.value ->> '$.id' AND emails.status = 'sending' AND emails.attempts = h.value ->> '$.attempts'
        RETURNING id`,
  ];
}

/**
 * Whether the email a JSON row (`alias`, from json_each, with `id` and `attempts`) names is still
 * under that claim: `claimedIn` for one row of a grouped statement.
 */
export const stillClaimedBy = (alias: string) =>
  sql`EXISTS (SELECT 1 FROM emails WHERE id = ${sql.identifier(alias)}.value ->> '$.id'
    AND status = 'sending' AND attempts = ${sql.identifier(alias)}.value ->> '$.attempts')`;

/** The ids whose hand-off held, from the answer of `handOffWrites`' last statement. */
export const heldBy = (answer: D1Result | undefined) =>
  new Set(((answer?.results ?? []) as Array<{ id: string }>).map((row) => row.id));

/** A recipient still open: never tried (`pending`) or deferred with retries left. */
export interface OpenRecipient {
  address: string;
  state: "pending" | "deferred";
  attempts: number;
  retryAt: number | null;
}

/**
 * The email's open recipients with their tries so far: on a first attempt every recipient, pending;
 * else those neither answered for good nor in doubt. The attempt sends to the due ones.
 */
export async function openRecipients(db: Db, email: EmailRow, all: string[]): Promise<OpenRecipient[]> {
  if (email.attempts === 1) {
    return all.map((address) => ({ address, state: "pending", attempts: 0, retryAt: null }));
  }
  const rows = await db.all<{
    address: string;
    state: "pending" | "deferred";
    attempts: number;
    retry_at: number | null;
  }>(sql`
    SELECT address, state, attempts, retry_at FROM email_recipients
    WHERE email_seq = ${email.seq} AND state IN ('pending', 'deferred')`);
  const open = new Map(rows.map((r) => [r.address, r]));
  return all.flatMap((address) => {
    const row = open.get(address);
    return row ? [{ address, state: row.state, attempts: row.attempts, retryAt: row.retry_at }] : [];
  });
}

export const ownedBy = (email: EmailRow) =>
  sql`EXISTS (SELECT 1 FROM emails WHERE id = ${email.id} AND status = 'sending' AND attempts = ${email.attempts})`;
