import { and, eq, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { changelogEntries } from "../db/schema/changelog";

/** The statement that publishes due entries, exposed so tests can check its plan uses an index. */
export function publishDueQuery(db: Db, now: number) {
  return db
    .update(changelogEntries)
    .set({ status: "published", updatedAt: now })
    .where(and(eq(changelogEntries.status, "scheduled"), lte(changelogEntries.publishedAt, now)));
}

/**
 * Publishes every scheduled changelog entry whose `published_at` has come, in one conditional
 * statement (an entry edited meanwhile is judged by its current row). `published_at` stays the
 * planned time; `updated_at` becomes now, the moment the feed changed, so feed validators move even
 * when the cron runs late. Answers how many were published.
 */
export async function publishDueChangelog(db: Db, now = Date.now()): Promise<number> {
  const rows = await publishDueQuery(db, now).returning({ id: changelogEntries.id });
  return rows.length;
}
