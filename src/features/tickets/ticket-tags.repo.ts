import { and, asc, eq, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tags, ticketTags } from "../../db/schema";
import { tagNameKey } from "../tags/tags.service";

/* A ticket's tags: the tags it names, made when new, and the links between them. */

/** Tags of an inbox by name (any case), creating the missing ones. */
export async function ensureTags(
  db: Db,
  accountId: string,
  inboxId: string,
  names: string[],
  newTagId: () => string,
  now: number,
) {
  // The first spelling of a name wins when it is given twice in different case.
  const wanted = [...new Map(names.toReversed().map((name) => [tagNameKey(name), name.trim()])).entries()];
  if (wanted.length === 0) return [];
  for (const [key, name] of wanted) {
    await db
      .insert(tags)
      .values({ id: newTagId(), accountId, inboxId, name, nameKey: key, createdAt: now })
      .onConflictDoNothing();
  }
  return db
    .select()
    .from(tags)
    .where(
      and(
        eq(tags.accountId, accountId),
        eq(tags.inboxId, inboxId),
        or(...wanted.map(([key]) => eq(tags.nameKey, key))),
      ),
    );
}

export function linkTagStatements(
  db: Db,
  accountId: string,
  ticketId: string,
  tagIds: string[],
  now: number,
) {
  return tagIds.map((tagId) =>
    db.insert(ticketTags).values({ ticketId, tagId, accountId, createdAt: now }).onConflictDoNothing(),
  );
}

export function unlinkTagStatement(db: Db, accountId: string, ticketId: string, tagId: string) {
  return db
    .delete(ticketTags)
    .where(
      and(
        eq(ticketTags.accountId, accountId),
        eq(ticketTags.ticketId, ticketId),
        eq(ticketTags.tagId, tagId),
      ),
    );
}

export function ticketTagsQuery(db: Db, accountId: string, ticketId: string) {
  return db
    .select({ tag: tags })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(and(eq(ticketTags.accountId, accountId), eq(ticketTags.ticketId, ticketId)))
    .orderBy(asc(ticketTags.createdAt));
}
