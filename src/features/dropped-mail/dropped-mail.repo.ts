import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type DropReason, droppedMail } from "../../db/schema";

export type DroppedMailRow = typeof droppedMail.$inferSelect;

export interface DroppedMailFilter {
  accountId: string;
  inboxId?: string | undefined;
  reason?: DropReason | undefined;
}

function whereOf(filter: DroppedMailFilter): SQL | undefined {
  return and(
    eq(droppedMail.accountId, filter.accountId),
    filter.inboxId === undefined ? undefined : eq(droppedMail.inboxId, filter.inboxId),
    filter.reason === undefined ? undefined : eq(droppedMail.reason, filter.reason),
  );
}

/**
 * The queries behind a list page, newest first, exposed so tests can check their plans: each
 * filter has an (account_id, filter, created_at) index, whose implicit rowid breaks ties.
 */
export function droppedMailQueries(db: Db, filter: DroppedMailFilter, limit: number, offset: number) {
  const where = whereOf(filter);
  return {
    page: db
      .select()
      .from(droppedMail)
      .where(where)
      .orderBy(desc(droppedMail.createdAt), desc(droppedMail.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(droppedMail).where(where),
  };
}

/** A page of the workspace's dropped mail and the exact filtered total, in one round trip. */
export async function listDroppedMail(db: Db, filter: DroppedMailFilter, limit: number, offset: number) {
  const { page, total } = droppedMailQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** The workspace's dropped mail with this public id (`drp_...`); another workspace's is not found. */
export async function findDroppedMail(db: Db, accountId: string, publicId: string) {
  const rows = await db
    .select()
    .from(droppedMail)
    .where(and(eq(droppedMail.publicId, publicId), eq(droppedMail.accountId, accountId)))
    .limit(1);
  return rows[0] ?? null;
}
