import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import {
  limitsFor,
  type PlanName,
  parseQuotaOverrides,
  percentage,
  type QuotaLimits,
  type QuotaName,
  recommendedPlan,
} from "../../lib/plans";
import { type CountedQuota, quotaWindow } from "../../lib/quota-windows";
import { findAccount } from "../accounts/accounts.repo";
import {
  type EmailWindows,
  findUsage,
  releaseUsage,
  reserveUsage,
  type UsageAmounts,
  type UsageRow,
} from "./usage.repo";

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

/** Throws the 429 of the storage quota when `bytes` more would not fit. */
export function assertStorageQuota(usage: Record<CountedQuota, number>, limits: QuotaLimits, bytes: number) {
  const limit = limits.storage_bytes;
  const current = usage.storage_bytes;
  if (bytes > 0 && limit !== null && current + bytes > limit) {
    throw limitExceeded("storage_bytes", current, limit, current + bytes);
  }
}

const RESERVE_TRIES = 3;

/**
 * Reserves `amounts.emails` sends and `amounts.bytes` of storage atomically. A reservation refused
 * is answered with the 429 of the quota that is full now, with its `current`, `limit`,
 * `percentage` and `recommended_plan`; when a fresh read shows room again (a concurrent
 * reservation was given back, or a window turned), it is simply tried again.
 */
export async function reserveQuota(
  db: Db,
  accountId: string,
  limits: QuotaLimits,
  amounts: UsageAmounts,
  now: number,
) {
  const windows = emailWindows(now);
  const usageLimits = {
    month: limits.emails_per_month,
    day: limits.emails_per_day,
    hour: limits.emails_per_hour,
    storage: limits.storage_bytes,
  };
  let usage = currentUsage(null, now);
  for (let tries = 0; tries < RESERVE_TRIES; tries++) {
    if (await reserveUsage(db, accountId, amounts, windows, usageLimits)) {
      return { release: () => releaseUsage(db, accountId, amounts, windows) };
    }
    usage = await readUsage(db, accountId, now);
    assertEmailQuota(usage, limits, amounts.emails);
    assertStorageQuota(usage, limits, amounts.bytes);
  }
  throw fullestQuota(usage, limits, amounts);
}

/** The 429 of whichever quota is nearest its limit, for a reservation refused again and again. */
function fullestQuota(usage: Record<CountedQuota, number>, limits: QuotaLimits, amounts: UsageAmounts) {
  const candidates = [
    ...(amounts.emails > 0 ? EMAIL_QUOTAS.map((q) => [q, amounts.emails] as const) : []),
    ...(amounts.bytes > 0 ? [["storage_bytes", amounts.bytes] as const] : []),
  ].flatMap(([quota, needed]) => {
    const limit = limits[quota];
    return limit === null ? [] : [{ quota, limit, current: usage[quota], needed }];
  });
  const fullest = candidates.sort((a, b) => b.current / (b.limit || 1) - a.current / (a.limit || 1))[0];
  if (!fullest)
    return new AppError(
      429,
      "limit_exceeded",
      "Limit exceeded",
      "The quota was reached by concurrent requests.",
    );
  return limitExceeded(fullest.quota, fullest.current, fullest.limit, fullest.current + fullest.needed);
}

/**
 * Reserves storage for bytes a write is about to keep (a note's attachments); answers the
 * release for when the write does not commit. Nothing to reserve costs nothing.
 */
export async function reserveStorage(db: Db, accountId: string, bytes: number, now: number) {
  if (bytes === 0) return { release: async () => {} };
  const account = await findAccount(db, accountId);
  const limits = account
    ? limitsFor(account.plan as PlanName, parseQuotaOverrides(account.quotaOverrides))
    : limitsFor("free", {});
  return reserveQuota(db, accountId, limits, { emails: 0, bytes }, now);
}
