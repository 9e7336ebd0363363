import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { limitsFor, type PlanName, parseQuotaOverrides } from "../../lib/plans";
import { findAccount } from "../accounts/accounts.repo";

/** The account's team-member limit (null: unlimited), from its plan and overrides. */
export async function teamMemberLimit(db: Db, accountId: string): Promise<number | null> {
  const account = await findAccount(db, accountId);
  if (!account) return null;
  return limitsFor(account.plan as PlanName, parseQuotaOverrides(account.quotaOverrides)).team_members;
}

/**
 * Seats taken: every user (active or disabled: a disabled user keeps their seat until removed)
 * plus every pending invitation not yet expired. Counted live, so nothing drifts when an
 * invitation expires by time alone.
 */
export const seatsTaken = (accountId: string, now: number): SQL => sql`(
  (SELECT count(*) FROM users WHERE account_id = ${accountId})
  + (SELECT count(*) FROM invitations WHERE account_id = ${accountId} AND status = 'pending' AND expires_at > ${now}))`;

/**
 * The condition of a conditional INSERT ... SELECT ... WHERE that adds one seat: SQLite runs the
 * statement alone, so the count and the insert see the same rows and two concurrent requests at
 * the limit admit one.
 */
export const seatAvailable = (accountId: string, limit: number | null, now: number): SQL =>
  limit === null ? sql`1` : sql`${seatsTaken(accountId, now)} < ${limit}`;

export async function countSeats(db: Db, accountId: string, now: number): Promise<number> {
  const row = await db.get<{ seats: number }>(sql`SELECT ${seatsTaken(accountId, now)} AS seats`);
  return row?.seats ?? 0;
}
