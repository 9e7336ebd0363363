import type { Db } from "../../db/client";
import { notFound } from "../../lib/errors";
import { limitsFor, type PlanName, parseQuotaOverrides, percentage } from "../../lib/plans";
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
  await getOwnAccount(db, callerAccountId, accountId);
  const retentionSeconds = input.request_log_retention ? parseDuration(input.request_log_retention) : null;
  const updated = await updateAccount(db, accountId, {
    name: input.name,
    ticketPrefix: input.ticket_prefix,
    requestLogRetention: input.request_log_retention,
    requestLogRetentionSeconds: retentionSeconds ?? undefined,
    defaultTrackOpens: input.default_track_opens,
    defaultTrackClicks: input.default_track_clicks,
    updatedAt: Date.now(),
  });
  if (!updated) throw notFound(`Account ${accountId}`);
  return toAccount(updated);
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
    },
  };
}
