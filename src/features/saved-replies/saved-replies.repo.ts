import { and, count, desc, eq, isNull, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { savedReplies } from "../../db/schema";

export type SavedReplyRow = typeof savedReplies.$inferSelect;

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(savedReplies.accountId, accountId), eq(savedReplies.id, id));

/**
 * The queries behind GET /v1/saved-replies, newest first, on the (account_id, created_at, id)
 * index; exposed so tests can check their plans. With an inbox: its own and the unscoped ones.
 */
export function savedReplyQueries(
  db: Db,
  accountId: string,
  inboxId: string | undefined,
  limit: number,
  offset: number,
) {
  const where = and(
    eq(savedReplies.accountId, accountId),
    inboxId === undefined ? undefined : or(isNull(savedReplies.inboxId), eq(savedReplies.inboxId, inboxId)),
  );
  return {
    page: db
      .select()
      .from(savedReplies)
      .where(where)
      .orderBy(desc(savedReplies.createdAt), desc(savedReplies.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(savedReplies).where(where),
  };
}

export const insertSavedReplyStatement = (db: Db, row: SavedReplyRow) => db.insert(savedReplies).values(row);

export async function findSavedReply(db: Db, accountId: string, id: string) {
  const rows = await db.select().from(savedReplies).where(ofWorkspace(accountId, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateSavedReply(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<Omit<SavedReplyRow, "id" | "accountId">>,
) {
  const rows = await db.update(savedReplies).set(changes).where(ofWorkspace(accountId, id)).returning();
  return rows[0] ?? null;
}

export async function deleteSavedReply(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(savedReplies)
    .where(ofWorkspace(accountId, id))
    .returning({ id: savedReplies.id });
  return rows.length > 0;
}
