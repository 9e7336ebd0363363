import type { Db } from "../../db/client";
import { EMAIL_RETENTION_MAX_DAYS, emailRetentionDays } from "../../lib/email-retention";
import { AppError, notFound } from "../../lib/errors";
import { limitsFor, PLAN_NAMES, type PlanName, parseQuotaOverrides, percentage } from "../../lib/plans";
import { COUNTED_QUOTAS, type CountedQuota, quotaWindow } from "../../lib/quota-windows";
import { iso, parseDuration } from "../../lib/time";
import { readUsage } from "../usage/usage.service";
import { countSeats } from "../users/team-limit";
import { toAccount } from "./accounts.dto";
import { type AccountRow, findAccount, updateAccount } from "./accounts.repo";
import type { UpdateAccountInput } from "./accounts.schemas";

/**
 * A key reaches only its own account: any other id answers 404, exactly as a missing one does,
 * so ids of other workspaces cannot even be confirmed.
 */
export async function getOwnAccount(db: Db, callerAccountId: string, accountId: string): Promise<AccountRow> {
  const account = accountId === callerAccountId ? await findAccount(db, accountId) : null;
  if (!account) throw notFound(`Account ${accountId}`);
  return account;
}

export async function listOwnAccounts(db: Db, callerAccountId: string) {
  const account = await findAccount(db, callerAccountId);
  return account ? [toAccount(account)] : [];
}

export async function patchAccount(
  db: Db,
  callerAccountId: string,
  accountId: string,
  input: UpdateAccountInput,
) {
  const account = await getOwnAccount(db, callerAccountId, accountId);
  const emailRetention =
    input.email_retention === undefined
      ? undefined
      : emailRetentionWithin(account.plan, input.email_retention);
  const retentionSeconds = input.request_log_retention ? parseDuration(input.request_log_retention) : null;
  const updated = await updateAccount(db, accountId, {
    name: input.name,
    ticketPrefix: input.ticket_prefix,
    requestLogRetention: input.request_log_retention,
    requestLogRetentionSeconds: retentionSeconds ?? undefined,
    emailRetentionDays: emailRetention,
    defaultTrackOpens: input.default_track_opens,
    defaultTrackClicks: input.default_track_clicks,
    updatedAt: Date.now(),
  });
  if (!updated) throw notFound(`Account ${accountId}`);
  return toAccount(updated);
}

/**
 * The days of an `email_retention` the schema accepted (`Nd`, 1 up), or the 422 when the plan
 * keeps less. A plan changed down after this check needs no guard: the retention in force is
 * always capped by the plan (emailRetentionDays).
 */
function emailRetentionWithin(plan: PlanName, text: string): number {
  const days = Number(text.slice(0, -1));
  const max = EMAIL_RETENTION_MAX_DAYS[plan];
  if (days <= max) return days;
  const larger = PLAN_NAMES.find((name) => EMAIL_RETENTION_MAX_DAYS[name] >= days);
  const message = `the ${plan} plan keeps email history at most ${max}d: choose 1d to ${max}d${
    larger ? ` (the ${larger} plan keeps up to ${EMAIL_RETENTION_MAX_DAYS[larger]}d)` : ""
  }`;
  // The validation error's shape, as 422: input well formed that this plan refuses.
  const path = "body.email_retention";
  throw new AppError(422, "validation_error", "Invalid request", `${path}: ${message}`, {
    details: [{ path, message }],
  });
}

export async function accountUsage(db: Db, callerAccountId: string, accountId: string, now = Date.now()) {
  const account = await getOwnAccount(db, callerAccountId, accountId);
  const limits = limitsFor(account.plan as PlanName, parseQuotaOverrides(account.quotaOverrides));
  // Seats are counted live: a pending invitation stops counting the moment it expires.
  const usage = {
    ...(await readUsage(db, accountId, now)),
    team_members: await countSeats(db, accountId, now),
  };
  const quotas = Object.fromEntries(
    COUNTED_QUOTAS.map((quota) => {
      const { resetsAt } = quotaWindow(quota, now);
      const current = usage[quota];
      return [
        quota,
        {
          current,
          limit: limits[quota],
          percentage: percentage(current, limits[quota]),
          resets_at: resetsAt === null ? null : iso(resetsAt),
        },
      ];
    }),
  ) as Record<
    CountedQuota,
    { current: number; limit: number | null; percentage: number | null; resets_at: string | null }
  >;
  return {
    account_id: account.id,
    plan: account.plan,
    quotas,
    limits: {
      requests_per_minute: limits.requests_per_minute,
      recipients_per_email: limits.recipients_per_email,
      email_retention_days: emailRetentionDays(account.plan, account.emailRetentionDays),
    },
  };
}
