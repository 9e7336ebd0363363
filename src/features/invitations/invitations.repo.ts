import { and, count, desc, eq, gt, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type INVITATION_STATES, invitations } from "../../db/schema";

export type InvitationRow = typeof invitations.$inferSelect;
export type NewInvitationRow = typeof invitations.$inferInsert;
export type InvitationStatus = (typeof INVITATION_STATES)[number];

export async function findInvitation(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), eq(invitations.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

const stillPending = (now: number) => and(eq(invitations.status, "pending"), gt(invitations.expiresAt, now));

export async function findPendingInvitationByEmail(db: Db, accountId: string, email: string, now: number) {
  const rows = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), eq(invitations.email, email), stillPending(now)))
    .limit(1);
  return rows[0] ?? null;
}

/** The invitation of the workspace (which the directory named for this hash) with this link. */
export async function findInvitationByTokenHash(db: Db, accountId: string, tokenHash: string) {
  const rows = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, tokenHash), eq(invitations.accountId, accountId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The WHERE of a status filter, `expired` and `pending` read against the clock. */
function statusWhere(status: InvitationStatus | undefined, now: number): SQL | undefined {
  if (status === "pending") return stillPending(now);
  if (status === "expired")
    return or(
      eq(invitations.status, "expired"),
      and(eq(invitations.status, "pending"), lte(invitations.expiresAt, now)),
    );
  return status ? eq(invitations.status, status) : undefined;
}

/** Newest first, one page and the total. */
export function invitationQueries(
  db: Db,
  accountId: string,
  status: InvitationStatus | undefined,
  page: { limit: number; offset: number },
  now: number,
) {
  const where = and(eq(invitations.accountId, accountId), statusWhere(status, now));
  return {
    page: db
      .select()
      .from(invitations)
      .where(where)
      .orderBy(desc(invitations.createdAt), desc(invitations.id))
      .limit(page.limit)
      .offset(page.offset),
    total: db.select({ total: count() }).from(invitations).where(where),
  };
}

/** Every invitation still pending, oldest first (for GET /v1/members). */
export function pendingInvitations(db: Db, accountId: string, now: number) {
  return db
    .select()
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), stillPending(now)))
    .orderBy(invitations.createdAt, invitations.id);
}

/**
 * Marks this email's pending invitations that ran out as `expired`: the one-pending-per-email
 * index then admits a new one.
 */
export const expireStale = (accountId: string, email: string, now: number) => sql`
  UPDATE invitations SET status = 'expired', updated_at = ${now}
  WHERE account_id = ${accountId} AND email = ${email} AND status = 'pending' AND expires_at <= ${now}`;

/** Inserts the invitation only while a seat is free; RETURNING tells whether it was. */
export function insertInvitationIfSeat(row: NewInvitationRow, seatCondition: SQL) {
  return sql`
    INSERT INTO invitations (id, account_id, email, role, status, token_hash, expires_at, invited_by, created_at, updated_at)
    SELECT ${row.id}, ${row.accountId}, ${row.email}, ${row.role}, 'pending', ${row.tokenHash}, ${row.expiresAt}, ${row.invitedBy}, ${row.createdAt}, ${row.updatedAt}
    WHERE ${seatCondition}
    RETURNING id`;
}
