import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts } from "../../db/schema";
import { type ChangelogStatus, changelogEntries } from "../../db/schema/changelog";
import type { ChangelogListQuery } from "./changelog.schemas";

export type ChangelogRow = typeof changelogEntries.$inferSelect;

/** The most entries a public page, or the feed, shows. */
export const PUBLIC_ENTRIES = 20;

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

const isPublished = (accountId: string) =>
  and(eq(changelogEntries.accountId, accountId), eq(changelogEntries.status, "published"));

/**
 * What a listing shows of an entry: never the Markdown, and the HTML only when the entry has no
 * summary (it is then at most WHOLE_ENTRY_BYTES), so a page of long entries reads none of them.
 */
const listedColumns = {
  id: changelogEntries.id,
  title: changelogEntries.title,
  category: changelogEntries.category,
  publishedAt: changelogEntries.publishedAt,
  createdAt: changelogEntries.createdAt,
  updatedAt: changelogEntries.updatedAt,
  summaryText: changelogEntries.summaryText,
  bodyHtml: sql<
    string | null
  >`CASE WHEN ${changelogEntries.summaryText} IS NULL THEN ${changelogEntries.bodyHtml} END`,
};

export type ListedEntry = {
  id: string;
  title: string;
  category: ChangelogRow["category"];
  publishedAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Null when the entry is shown whole. */
  summaryText: string | null;
  /** Null when it is too long to list: the summary stands in. */
  bodyHtml: string | null;
};

/**
 * A page of a workspace's published entries, newest published first: the public page and the
 * feed. One more than `limit` tells whether an older page exists.
 */
export function publishedEntriesQuery(db: Db, accountId: string, limit = PUBLIC_ENTRIES, offset = 0) {
  return db
    .select(listedColumns)
    .from(changelogEntries)
    .where(isPublished(accountId))
    .orderBy(desc(changelogEntries.publishedAt), desc(changelogEntries.id))
    .limit(limit)
    .offset(offset);
}

/** One published entry, whole: its own public page. */
export async function findPublishedEntry(db: Db, accountId: string, id: string): Promise<ListedEntry | null> {
  const rows = await db
    .select({ ...listedColumns, summaryText: sql<null>`NULL`, bodyHtml: changelogEntries.bodyHtml })
    .from(changelogEntries)
    .where(and(isPublished(accountId), eq(changelogEntries.id, id)))
    .limit(1);
  return rows[0] ?? null;
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
