import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { percentage } from "../../lib/plans";

/**
 * Invitation emails are the service's own mail, outside the workspace's email quotas, so they have
 * limits of their own: per workspace per UTC hour (new and resent alike), and per invitation a
 * cooldown between sends and a cap on resends. Every plan gets the same: a team rarely invites more
 * than a few people an hour, and a person who lost the email needs one resend, not sixty.
 */
export const INVITATION_EMAILS_PER_HOUR = 20;
export const RESEND_COOLDOWN_MS = 60_000;
export const MAX_RESENDS = 5;

const HOUR_MS = 3_600_000;
const hourStart = (now: number) => Math.floor(now / HOUR_MS) * HOUR_MS;

const sentThisHour = (accountId: string, now: number) =>
  sql`COALESCE((SELECT sent FROM invitation_mail_counts WHERE account_id = ${accountId} AND hour_start = ${hourStart(now)}), 0)`;

/** The condition of an invitation's write that sends an email: the workspace's hour has room. */
export const hourHasRoom = (accountId: string, now: number): SQL =>
  sql`${sentThisHour(accountId, now)} < ${INVITATION_EMAILS_PER_HOUR}`;

/**
 * Counts one email against the hour, in the batch of the invitation's write and only if that write
 * went through (`written`). Batches run one at a time, so a batch always sees the counts of those
 * before it: concurrent invitations never pass the limit.
 */
export const countSentStatement = (accountId: string, now: number, written: SQL): SQL => sql`
  INSERT INTO invitation_mail_counts (account_id, hour_start, sent)
  SELECT ${accountId}, ${hourStart(now)}, 1 WHERE ${written}
  ON CONFLICT (account_id, hour_start) DO UPDATE SET sent = sent + 1`;

export async function emailsSentThisHour(db: Db, accountId: string, now: number) {
  const row = await db.get<{ sent: number } | undefined>(sql`SELECT ${sentThisHour(accountId, now)} AS sent`);
  return row?.sent ?? 0;
}

/**
 * The 429 of these limits, shaped as the plan quotas' (`limit_exceeded`), with Retry-After when
 * waiting helps (none for the resend cap: waiting never lifts it).
 */
function limitReached(
  quota: string,
  current: number,
  limit: number,
  retryAfterMs: number | null,
  detail: string,
) {
  const wait: Record<string, string> =
    retryAfterMs === null ? {} : { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  return new AppError(
    429,
    "limit_exceeded",
    "Limit exceeded",
    detail,
    { quota, current, limit, percentage: percentage(current, limit) },
    wait,
  );
}

export const hourlyLimitReached = (sent: number, now: number) =>
  limitReached(
    "invitation_emails_per_hour",
    sent,
    INVITATION_EMAILS_PER_HOUR,
    hourStart(now) + HOUR_MS - now,
    `The workspace has sent ${sent} invitation emails this hour, the most allowed (${INVITATION_EMAILS_PER_HOUR}, new and resent); try again next hour.`,
  );

export const resendTooSoon = (lastSentAt: number, now: number) =>
  limitReached(
    "invitation_resend_cooldown_seconds",
    Math.floor((now - lastSentAt) / 1000),
    RESEND_COOLDOWN_MS / 1000,
    lastSentAt + RESEND_COOLDOWN_MS - now,
    `This invitation was emailed less than ${RESEND_COOLDOWN_MS / 1000} seconds ago; wait before resending it.`,
  );

export const tooManyResends = (resends: number) =>
  limitReached(
    "invitation_resends",
    resends,
    MAX_RESENDS,
    null,
    `This invitation was resent ${resends} times, the most allowed (${MAX_RESENDS}); revoke it and invite again if the address is right.`,
  );
