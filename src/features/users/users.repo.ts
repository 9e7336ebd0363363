import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, users } from "../../db/schema";

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** Oldest first: the workspace's first owner leads the list. */
export function listUsers(db: Db, accountId: string) {
  return db
    .select()
    .from(users)
    .where(eq(users.accountId, accountId))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/** A page of the workspace's users, oldest first, for pages that must stay small whatever the team's size. */
export function usersPage(db: Db, accountId: string, limit: number, offset = 0, activeOnly = false) {
  return db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), activeOnly ? eq(users.status, "active") : undefined))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(limit)
    .offset(offset);
}

export async function countUsers(db: Db, accountId: string) {
  const row = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM users WHERE account_id = ${accountId}`,
  );
  return row.n;
}

/** The named users of the workspace (any number of ids: one bound list, read with json_each). */
export function usersByIds(db: Db, accountId: string, ids: string[]) {
  return db
    .select()
    .from(users)
    .where(
      and(
        eq(users.accountId, accountId),
        sql`${users.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    );
}

export async function findUser(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Db, accountId: string, email: string) {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.email, email)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The active user with this (lowercase) email in the workspace, with the workspace's name and
 * status, in one read: who may sign in there (POST /login, which found the workspace in the
 * directory). The caller reads the workspace gate from `workspaceStatus`.
 */
export async function activeUserByEmail(db: Db, accountId: string, email: string) {
  const rows = await db
    .select({ id: users.id, email: users.email, workspace: accounts.name, workspaceStatus: accounts.status })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(users.accountId, accountId), eq(users.email, email), eq(users.status, "active")))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * True unless user `id` is the workspace's last active owner: another active owner exists, or
 * this user is not one. Part of the WHERE of every write that could leave a workspace without one.
 */
export const notLastOwner = (accountId: string, id: string): SQL => sql`(
  NOT EXISTS (SELECT 1 FROM users WHERE id = ${id} AND account_id = ${accountId} AND role = 'owner' AND status = 'active')
  OR EXISTS (SELECT 1 FROM users WHERE account_id = ${accountId} AND role = 'owner' AND status = 'active' AND id != ${id}))`;

/** Inserts the user only while a seat is free (`seatCondition`); answers the row, or null when full. */
export function insertUserIfSeat(row: NewUserRow, seatCondition: SQL) {
  return sql`
    INSERT INTO users (id, account_id, email, name, role, status, created_at, updated_at)
    SELECT ${row.id}, ${row.accountId}, ${row.email}, ${row.name ?? null}, ${row.role}, 'active', ${row.createdAt}, ${row.updatedAt}
    WHERE ${seatCondition}
    RETURNING id`;
}
