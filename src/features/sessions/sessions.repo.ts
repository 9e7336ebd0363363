import { and, eq, gt, sql } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { accounts, loginTokens, sessions, users } from "../../db/schema";

/** A session row for the user `userId`, written only while that user is active. */
export const insertSessionStatement = (
  tokenHash: string,
  userId: string,
  expiresAt: number,
  now: number,
): Statement =>
  sql`INSERT INTO sessions (token_hash, account_id, user_id, expires_at, created_at)
      SELECT ${tokenHash}, account_id, id, ${expiresAt}, ${now} FROM users WHERE id = ${userId} AND status = 'active'`;

export const touchLastLogin = (userId: string, now: number): Statement =>
  sql`UPDATE users SET last_login_at = ${now} WHERE id = ${userId} AND status = 'active'`;

/**
 * The signed-in person behind a session: only while it is unexpired and the user active. The
 * workspace's status comes with it (the same read), for the dashboard's gate.
 */
export async function findActiveSession(db: Db, tokenHash: string, now: number) {
  const rows = await db
    .select({
      tokenHash: sessions.tokenHash,
      accountId: sessions.accountId,
      userId: users.id,
      role: users.role,
      email: users.email,
      workspace: accounts.name,
      workspaceStatus: accounts.status,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), eq(users.status, "active")))
    .limit(1);
  return rows[0] ?? null;
}

export const deleteSession = (db: Db, tokenHash: string) =>
  db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));

/** A sign-in link that is unused, unexpired and whose user is active, with what its page shows. */
export async function findUsableLoginToken(db: Db, tokenHash: string, now: number) {
  const rows = await db
    .select({ tokenHash: loginTokens.tokenHash, email: users.email, workspace: accounts.name })
    .from(loginTokens)
    .innerJoin(users, eq(users.id, loginTokens.userId))
    .innerJoin(accounts, eq(accounts.id, loginTokens.accountId))
    .where(
      and(
        eq(loginTokens.tokenHash, tokenHash),
        sql`${loginTokens.usedAt} IS NULL`,
        gt(loginTokens.expiresAt, now),
        eq(users.status, "active"),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Uses the link up, once: of two concurrent requests only one gets the user back. */
export async function consumeLoginToken(db: Db, tokenHash: string, now: number) {
  const rows = await db
    .update(loginTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(loginTokens.tokenHash, tokenHash),
        sql`${loginTokens.usedAt} IS NULL`,
        gt(loginTokens.expiresAt, now),
        sql`EXISTS (SELECT 1 FROM users WHERE id = ${loginTokens.userId} AND status = 'active')`,
      ),
    )
    .returning({ userId: loginTokens.userId, tokenHash: loginTokens.tokenHash });
  return rows[0] ?? null;
}
