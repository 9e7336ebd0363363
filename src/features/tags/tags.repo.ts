import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxes, tags } from "../../db/schema";

export type TagRow = typeof tags.$inferSelect;

/** The one query behind GET /v1/tags, exposed so tests can check its plan uses an index. */
export function tagQuery(db: Db, accountId: string, inboxId?: string) {
  return db
    .select()
    .from(tags)
    .where(and(eq(tags.accountId, accountId), inboxId === undefined ? undefined : eq(tags.inboxId, inboxId)))
    .orderBy(desc(tags.createdAt), desc(tags.id));
}

/** Inserts unless the inbox already has the name (in any case); answers the new row, or null. */
export async function insertTag(db: Db, row: typeof tags.$inferInsert) {
  const rows = await db.insert(tags).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function findTag(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(tags)
    .where(and(eq(tags.accountId, accountId), eq(tags.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The workspace's tags among `ids`, newest first; ids of other workspaces or unknown ones are left
 * out, so callers compare lengths to find them. The ids travel as one JSON parameter, clear of
 * D1's 100-parameter limit.
 */
export async function findTagsByIds(db: Db, accountId: string, ids: readonly string[]): Promise<TagRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(tags)
    .where(
      and(
        eq(tags.accountId, accountId),
        inArray(tags.id, sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`),
      ),
    )
    .orderBy(desc(tags.createdAt), desc(tags.id));
}

/** Whether another tag of the inbox has this name key. */
export async function nameTakenByOther(db: Db, inboxId: string, nameKey: string, id: string) {
  const rows = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.inboxId, inboxId), eq(tags.nameKey, nameKey), ne(tags.id, id)))
    .limit(1);
  return rows.length > 0;
}

export async function updateTag(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof tags.$inferInsert>,
) {
  const rows = await db
    .update(tags)
    .set(changes)
    .where(and(eq(tags.accountId, accountId), eq(tags.id, id)))
    .returning();
  return rows[0] ?? null;
}

/** Links to tickets go with it (ON DELETE CASCADE). Answers whether a tag was deleted. */
export async function deleteTag(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(tags)
    .where(and(eq(tags.accountId, accountId), eq(tags.id, id)))
    .returning({ id: tags.id });
  return rows.length > 0;
}

/** Whether the inbox exists in the workspace (tags may only be made in the caller's own inboxes). */
export async function inboxBelongsTo(db: Db, accountId: string, inboxId: string) {
  const rows = await db
    .select({ id: inboxes.id })
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId)))
    .limit(1);
  return rows.length > 0;
}
