import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxes } from "../../db/schema";

export type InboxRow = typeof inboxes.$inferSelect;

/**
 * Inserts unless this shard has the address already (its unique index; across the service the
 * directory's claim decides, made before this).
 */
export function insertInbox(db: Db, row: typeof inboxes.$inferInsert) {
  return db.insert(inboxes).values(row).onConflictDoNothing().returning();
}

/** The queries behind a list page, newest first; exposed so tests can check their plans use indexes. */
export function inboxQueries(db: Db, accountId: string, limit: number, offset: number) {
  const where = eq(inboxes.accountId, accountId);
  return {
    page: db
      .select()
      .from(inboxes)
      .where(where)
      .orderBy(desc(inboxes.createdAt), desc(inboxes.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(inboxes).where(where),
  };
}

/** A page and the workspace's total, in one round trip. */
export async function listInboxes(db: Db, accountId: string, limit: number, offset: number) {
  const { page, total } = inboxQueries(db, accountId, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** The inbox by id within the account, as a query for a batch. */
export const findInboxQuery = (db: Db, accountId: string, id: string) =>
  db
    .select()
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, id)))
    .limit(1);

export async function findInbox(db: Db, accountId: string, id: string) {
  const rows = await findInboxQuery(db, accountId, id);
  return rows[0] ?? null;
}

/**
 * The statement that writes an inbox's new state (for a batch with its event). The assignment
 * cursor is left out: assignments move it concurrently, and an edit must not set it back.
 */
export function updateInboxStatement(db: Db, row: InboxRow) {
  const { id, accountId, createdAt: _createdAt, assignmentCursor: _cursor, ...changes } = row;
  return db
    .update(inboxes)
    .set(changes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, id)));
}

/** Tickets, their messages and tag links, and the inbox's tags go with it by foreign-key cascade. */
export function deleteInboxStatement(db: Db, accountId: string, id: string) {
  return db.delete(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, id)));
}
