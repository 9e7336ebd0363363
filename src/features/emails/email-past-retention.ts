import { decodeTime } from "ulid";
import type { Db } from "../../db/client";
import {
  ARCHIVE_RETENTION_DAYS,
  DAY_MS,
  dayLabel,
  emailRetentionDays,
  keptFrom,
} from "../../lib/email-retention";
import { AppError, notFound } from "../../lib/errors";
import { idPattern } from "../../lib/ids";
import { findAccount } from "../accounts/accounts.repo";

const EMAIL_ID = new RegExp(idPattern("eml"));

/** When an email id was made (its ULID's time), or null for a string that is no email id. */
function acceptedAt(id: string): number | null {
  if (!EMAIL_ID.test(id)) return null;
  try {
    return decodeTime(id.slice("eml_".length));
  } catch {
    return null; // a ULID past the year 10889
  }
}

/**
 * The 404 of an email not found. An id dated before the workspace's retention names an email the
 * retention run deleted (or one never made: the id alone cannot tell, and says nothing of other
 * workspaces' emails), so the answer names the day and its archive. The retention is read only
 * here, never for a found email, and not for an id of today or yesterday, which no retention
 * (1 day at least) has reached.
 */
export async function emailNotFound(ctx: { db: Db; accountId: string; now: number }, id: string) {
  const time = acceptedAt(id);
  if (time === null || time >= keptFrom(ctx.now, 1)) return notFound(`Email ${id}`);
  const account = await findAccount(ctx.db, ctx.accountId);
  const days = account ? emailRetentionDays(account.plan, account.emailRetentionDays) : null;
  if (days === null || time >= keptFrom(ctx.now, days)) return notFound(`Email ${id}`);
  const day = dayLabel(Math.floor(time / DAY_MS));
  return new AppError(
    404,
    "not_found",
    "Not found",
    `Email ${id} was accepted on ${day}, past this workspace's ${days}-day email retention, so it was deleted. Its record is in the archive of that day (archives are kept ${ARCHIVE_RETENTION_DAYS} days): GET /v1/emails/archives/${day}.`,
  );
}
