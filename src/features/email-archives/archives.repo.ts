import { and, asc, count, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailArchiveParts, emailArchives } from "../../db/schema";

export type EmailArchiveRow = typeof emailArchives.$inferSelect;

/**
 * The queries behind a page of the workspace's archived days, newest first, exposed so tests can
 * check their plans: both are a range of the primary key (account_id, day), read backwards.
 */
export function archiveListQueries(
  db: Db,
  accountId: string,
  before: number | undefined,
  limit: number,
  offset: number,
) {
  const where = and(
    eq(emailArchives.accountId, accountId),
    before === undefined ? undefined : lt(emailArchives.day, before),
  );
  return {
    page: db
      .select()
      .from(emailArchives)
      .where(where)
      .orderBy(desc(emailArchives.day))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(emailArchives).where(where),
  };
}

/** A page of archived days and the exact total, in one round trip. */
export async function listArchives(
  db: Db,
  accountId: string,
  before: number | undefined,
  limit: number,
  offset: number,
) {
  const { page, total } = archiveListQueries(db, accountId, before, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/**
 * A day's `archived` parts in part order: what its download is made of. A `writing` part is a run
 * still at work (or dead), whose object may be partial or gone: never shown.
 */
export function archivedPartsQuery(db: Db, accountId: string, day: number) {
  return db
    .select({
      part: emailArchiveParts.part,
      token: emailArchiveParts.token,
      bytes: emailArchiveParts.bytes,
      etag: emailArchiveParts.etag,
    })
    .from(emailArchiveParts)
    .where(
      and(
        eq(emailArchiveParts.accountId, accountId),
        eq(emailArchiveParts.day, day),
        eq(emailArchiveParts.state, "archived"),
      ),
    )
    .orderBy(asc(emailArchiveParts.part));
}

export type ArchivedPart = Awaited<ReturnType<typeof archivedPartsQuery>>[number];
