import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { ticketViews } from "../../db/schema";

export type ViewRow = typeof ticketViews.$inferSelect;

/**
 * A workspace's views that `userId` sees (shared ones, and theirs), oldest first. The walk reads
 * the workspace's views along its index and checks the owner on each: at most MAX_VIEWS rows.
 */
export const visibleViewsQuery = (db: Db, accountId: string, userId: string | null) =>
  db
    .select()
    .from(ticketViews)
    .where(
      and(
        eq(ticketViews.accountId, accountId),
        userId === null
          ? isNull(ticketViews.ownerUserId)
          : or(isNull(ticketViews.ownerUserId), eq(ticketViews.ownerUserId, userId)),
      ),
    )
    .orderBy(asc(ticketViews.createdAt), asc(ticketViews.id));

export async function findView(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(ticketViews)
    .where(and(eq(ticketViews.accountId, accountId), eq(ticketViews.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** Inserts the view while the workspace holds fewer than `max`; answers whether it did. */
export async function insertViewBelow(db: Db, row: ViewRow, max: number): Promise<boolean> {
  const result = await db.run(sql`
    INSERT INTO ticket_views (id, account_id, owner_user_id, name, filters, created_at, updated_at)
    SELECT ${row.id}, ${row.accountId}, ${row.ownerUserId}, ${row.name}, ${row.filters}, ${row.createdAt}, ${row.updatedAt}
    WHERE (SELECT count(*) FROM ticket_views WHERE account_id = ${row.accountId}) < ${max}`);
  return result.meta.changes > 0;
}

export async function updateView(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<Pick<ViewRow, "name" | "filters" | "ownerUserId" | "updatedAt">>,
) {
  const rows = await db
    .update(ticketViews)
    .set(changes)
    .where(and(eq(ticketViews.accountId, accountId), eq(ticketViews.id, id)))
    .returning();
  return rows[0] ?? null;
}

export async function deleteView(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(ticketViews)
    .where(and(eq(ticketViews.accountId, accountId), eq(ticketViews.id, id)))
    .returning({ id: ticketViews.id });
  return rows.length > 0;
}
