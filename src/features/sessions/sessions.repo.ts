import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { accounts, loginTokens, sessions, users } from "../../db/schema";

/*
 * Sessions and sign-in links are found by their hash in the directory, which names their
 * workspace; every read and write here is scoped by that workspace.
 */

/** A session row for the user `userId` of `accountId`, written only while that user is active. */
export const insertSessionStatement = (
  tokenHash: string,
  accountId: string,
  userId: string,
  expiresAt: number,
  now: number,
): Statement =>
  sql`INSERT INTO sessions (token_hash, account_id, user_id, expires_at, created_at)
      SELECT ${tokenHash}, account_id, id, ${expiresAt}, ${now} FROM users
      WHERE id = ${userId} AND account_id = ${accountId} AND status = 'active'`;

export const touchLastLogin = (accountId: string, userId: string, now: number): Statement =>
  sql`UPDATE users SET last_login_at = ${now} WHERE id = ${userId} AND account_id = ${accountId} AND status = 'active'`;

/**
 * The signed-in person behind a session of the workspace: only while it is unexpired and the user
 * active. The workspace's status comes with it (the same read), for the dashboard's gate.
 */
export async function findActiveSession(db: Db, accountId: string, tokenHash: string, now: number) {
  const rows = await db
    .select({
      tokenHash: sessions.tokenHash,
      accountId: sessions.accountId,
      userId: users.id,
      role: users.role,
      email: users.email,
      name: users.name,
      workspace: accounts.name,
      workspaceStatus: accounts.status,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        eq(sessions.accountId, accountId),
        gt(sessions.expiresAt, now),
        eq(users.status, "active"),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export const deleteSession = (db: Db, accountId: string, tokenHash: string) =>
  db.delete(sessions).where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.accountId, accountId)));

/** A sign-in link of the workspace that is unused, unexpired and whose user is active, with what its page shows. */
export async function findUsableLoginToken(db: Db, accountId: string, tokenHash: string, now: number) {
  const rows = await db
    .select({ tokenHash: loginTokens.tokenHash, email: users.email, workspace: accounts.name })
    .from(loginTokens)
    .innerJoin(users, eq(users.id, loginTokens.userId))
    .innerJoin(accounts, eq(accounts.id, loginTokens.accountId))
    .where(
      and(
        eq(loginTokens.tokenHash, tokenHash),
        eq(loginTokens.accountId, accountId),
        sql`${loginTokens.usedAt} IS NULL`,
        gt(loginTokens.expiresAt, now),
        eq(users.status, "active"),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Uses the link up, once: of two concurrent requests only one gets the user back. */
export async function consumeLoginToken(db: Db, accountId: string, tokenHash: string, now: number) {
  const rows = await db
    .update(loginTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(loginTokens.tokenHash, tokenHash),
        eq(loginTokens.accountId, accountId),
        sql`${loginTokens.usedAt} IS NULL`,
        gt(loginTokens.expiresAt, now),
        sql`EXISTS (SELECT 1 FROM users WHERE id = ${loginTokens.userId} AND status = 'active')`,
      ),
    )
    .returning({ userId: loginTokens.userId, tokenHash: loginTokens.tokenHash });
  return rows[0] ?? null;
}

/** The statements deleting at most `limit` expired sessions and as many expired sign-in links (used or not), through their expiry indexes. */
export const expiredSignInDeletes = (db: Db, now: number, limit: number) =>
  [
    db
      .delete(sessions)
      .where(
        sql`rowid IN (SELECT rowid FROM ${sessions} WHERE ${lte(sessions.expiresAt, now)} LIMIT ${limit})`,
      ),
    db
      .delete(loginTokens)
      .where(
        sql`rowid IN (SELECT rowid FROM ${loginTokens} WHERE ${lte(loginTokens.expiresAt, now)} LIMIT ${limit})`,
      ),
  ] as const;

/**
 * Deletes at most `limit` expired sessions, then as many expired sign-in links, in one round trip;
 * answers how many went. Nothing reads them once expired.
 */
export async function deleteExpiredSignIns(db: Db, now: number, limit: number): Promise<number> {
  const [gone, links] = await db.batch(expiredSignInDeletes(db, now, limit));
  return (gone.meta.changes ?? 0) + (links.meta.changes ?? 0);
}
