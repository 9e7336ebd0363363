import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts } from "../../db/schema";
import { type ChangelogStatus, changelogEntries } from "../../db/schema/changelog";
import type { ChangelogListQuery } from "./changelog.schemas";

export type ChangelogRow = typeof changelogEntries.$inferSelect;

/** The most entries the public page and the feed show. */
export const PUBLIC_ENTRIES = 50;

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(changelogEntries.accountId, accountId), eq(changelogEntries.id, id));

/**
 * The queries behind GET /v1/changelog, exposed so tests can check their plans use indexes: every
 * status, newest written first (by `created_at`, then the time-sorted id).
 */
export function changelogQueries(db: Db, accountId: string, query: ChangelogListQuery) {
  const where = and(
    eq(changelogEntries.accountId, accountId),
    query.status === undefined ? undefined : eq(changelogEntries.status, query.status),
    query.category === undefined ? undefined : eq(changelogEntries.category, query.category),
  );
  return {
    page: db
      .select()
      .from(changelogEntries)
      .where(where)
      .orderBy(desc(changelogEntries.createdAt), desc(changelogEntries.id))
      .limit(query.limit)
      .offset(query.offset),
    total: db.select({ total: count() }).from(changelogEntries).where(where),
  };
}

/** A workspace's latest published entries, newest published first: the public page and the feed. */
export function publishedEntriesQuery(db: Db, accountId: string) {
  return db
    .select()
    .from(changelogEntries)
    .where(and(eq(changelogEntries.accountId, accountId), eq(changelogEntries.status, "published")))
    .orderBy(desc(changelogEntries.publishedAt), desc(changelogEntries.id))
    .limit(PUBLIC_ENTRIES);
}

/** The workspace a public page names, if it is active; a suspended one publishes nothing. */
export async function findPublishingAccount(db: Db, accountId: string) {
  const rows = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      createdAt: accounts.createdAt,
      updatedAt: accounts.updatedAt,
    })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.status, "active")))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertEntry(db: Db, row: typeof changelogEntries.$inferInsert) {
  const [inserted] = await db.insert(changelogEntries).values(row).returning();
  if (!inserted) throw new Error("The changelog entry insert returned no row.");
  return inserted;
}

export async function findEntry(db: Db, accountId: string, id: string) {
  const rows = await db.select().from(changelogEntries).where(ofWorkspace(accountId, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Updates the entry only if its status is still the one the change was judged against, so that an
 * edit cannot undo the cron's publication it raced with. Answers the row, or null.
 */
export async function updateEntryIfStatus(
  db: Db,
  accountId: string,
  id: string,
  expected: ChangelogStatus,
  changes: Partial<typeof changelogEntries.$inferInsert>,
) {
  const rows = await db
    .update(changelogEntries)
    .set(changes)
    .where(and(ofWorkspace(accountId, id), eq(changelogEntries.status, expected)))
    .returning();
  return rows[0] ?? null;
}

export async function deleteEntry(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(changelogEntries)
    .where(ofWorkspace(accountId, id))
    .returning({ id: changelogEntries.id });
  return rows.length > 0;
}
