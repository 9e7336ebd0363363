import { and, count, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contactGroups } from "../../db/schema";

export type ContactGroupRow = typeof contactGroups.$inferSelect;

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, id));

/** The queries behind GET /v1/contact-groups, exposed so tests can check their plans use indexes. */
export function contactGroupQueries(db: Db, accountId: string, limit: number, offset: number) {
  const where = eq(contactGroups.accountId, accountId);
  return {
    page: db
      .select()
      .from(contactGroups)
      .where(where)
      .orderBy(desc(contactGroups.createdAt), desc(contactGroups.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(contactGroups).where(where),
  };
}

/** The workspace's groups that meet `condition`, newest first, on the (account_id, created_at, id) index. */
const groupsWhere = (db: Db, accountId: string, condition: SQL) =>
  db
    .select()
    .from(contactGroups)
    .where(and(eq(contactGroups.accountId, accountId), condition))
    .orderBy(desc(contactGroups.createdAt), desc(contactGroups.id));

/**
 * Up to `limit` groups whose name contains `text` in any case (the dashboard's group picker).
 * `instr` rather than LIKE: no wildcard in the text needs escaping.
 */
export const groupsNamedLike = (db: Db, accountId: string, text: string, limit: number) =>
  groupsWhere(db, accountId, sql`instr(${contactGroups.nameKey}, ${text.trim().toLowerCase()}) > 0`).limit(
    limit,
  );

/** The workspace's groups among `ids` (others' ids are left out); `json_each` keeps it one parameter. */
export const groupsWithIds = (db: Db, accountId: string, ids: string[]) =>
  groupsWhere(
    db,
    accountId,
    sql`${contactGroups.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );

/** Inserts unless the workspace has the name (in any case); answers the new row, or null. */
/** A new group's insert, for the batch that creates it; a taken name fails the batch. */
export const insertContactGroupStatement = (db: Db, row: ContactGroupRow) =>
  db.insert(contactGroups).values(row);

/** The group as a query, so that it can join a batch. */
export function contactGroupQuery(db: Db, accountId: string, id: string) {
  return db.select().from(contactGroups).where(ofWorkspace(accountId, id)).limit(1);
}

export async function findContactGroup(db: Db, accountId: string, id: string) {
  return (await contactGroupQuery(db, accountId, id))[0] ?? null;
}

/** Whether another group of the workspace has this name key. */
export async function nameTakenByOther(db: Db, accountId: string, nameKey: string, id: string) {
  const rows = await db
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(
      and(
        eq(contactGroups.accountId, accountId),
        eq(contactGroups.nameKey, nameKey),
        ne(contactGroups.id, id),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function updateContactGroup(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof contactGroups.$inferInsert>,
) {
  const rows = await db.update(contactGroups).set(changes).where(ofWorkspace(accountId, id)).returning();
  return rows[0] ?? null;
}

/** Its memberships go with it (ON DELETE CASCADE); the customers stay. Answers whether it was deleted. */
export async function deleteContactGroup(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(contactGroups)
    .where(ofWorkspace(accountId, id))
    .returning({ id: contactGroups.id });
  return rows.length > 0;
}
