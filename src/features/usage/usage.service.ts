import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import {
  type PlanName,
  percentage,
  type QuotaLimits,
  type QuotaName,
  recommendedPlan,
} from "../../lib/plans";
import { type CountedQuota, quotaWindow } from "../../lib/quota-windows";
import { type EmailWindows, findUsage, releaseEmails, reserveEmails, type UsageRow } from "./usage.repo";

/** The current value of each counted quota, reading a window's count only while it is current. */
export function currentUsage(row: UsageRow | null, now: number): Record<CountedQuota, number> {
  const inWindow = (start: number | undefined, quota: CountedQuota, value: number | undefined) =>
    start === quotaWindow(quota, now).start ? (value ?? 0) : 0;
  return {
    emails_per_month: inWindow(row?.monthStart, "emails_per_month", row?.emailsMonth),
    emails_per_day: inWindow(row?.dayStart, "emails_per_day", row?.emailsDay),
    emails_per_hour: inWindow(row?.hourStart, "emails_per_hour", row?.emailsHour),
    storage_bytes: row?.storageBytes ?? 0,
    team_members: row?.teamMembers ?? 0,
  };
}

export async function readUsage(db: Db, accountId: string, now = Date.now()) {
  return currentUsage(await findUsage(db, accountId), now);
}

export function emailWindows(now: number): EmailWindows {
  return {
    month: quotaWindow("emails_per_month", now).start,
    day: quotaWindow("emails_per_day", now).start,
    hour: quotaWindow("emails_per_hour", now).start,
  };
}

/** The 429 of a plan quota, with the spec's context fields. */
export function limitExceeded(quota: QuotaName, current: number, limit: number, needed: number): AppError {
  const plan: PlanName = recommendedPlan(quota, needed);
  return new AppError(
    429,
    "limit_exceeded",
    "Limit exceeded",
    `This request needs ${needed} against the ${quota.replaceAll("_", " ")} limit of ${limit}; ${current} already used. Wait for the period to reset or move to the ${plan} plan.`,
    { quota, current, limit, percentage: percentage(current, limit), recommended_plan: plan },
  );
}

const EMAIL_QUOTAS = ["emails_per_hour", "emails_per_day", "emails_per_month"] as const;

/** Throws the 429 of the first email quota that `count` more emails would exceed. */
export function assertEmailQuota(
  usage: Record<CountedQuota, number>,
  limits: QuotaLimits,
  count: number,
): void {
  for (const quota of EMAIL_QUOTAS) {
    const limit = limits[quota];
    if (limit !== null && usage[quota] + count > limit) {
      throw limitExceeded(quota, usage[quota], limit, usage[quota] + count);
    }
  }
}

/**
 * Reserves `count` sends atomically. A race lost since the quota was read is answered with the
 * same 429 the read would have given.
 */
export async function reserveEmailQuota(
  db: Db,
  accountId: string,
  limits: QuotaLimits,
  count: number,
  now: number,
) {
  const windows = emailWindows(now);
  const reserved = await reserveEmails(db, accountId, count, windows, {
    month: limits.emails_per_month,
    day: limits.emails_per_day,
    hour: limits.emails_per_hour,
  });
  if (!reserved) {
    assertEmailQuota(await readUsage(db, accountId, now), limits, count);
    throw new AppError(
      429,
      "limit_exceeded",
      "Limit exceeded",
      "The email quota was reached by concurrent sends.",
    );
  }
  return { release: () => releaseEmails(db, accountId, count, windows) };
}
