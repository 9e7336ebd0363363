import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type CampaignStatus, campaigns, contactGroups } from "../../db/schema";
import { mayActSql } from "../../lib/workspace-gate";

export type CampaignRow = typeof campaigns.$inferSelect;

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(campaigns.accountId, accountId), eq(campaigns.id, id));

/** The queries behind GET /v1/campaigns, exposed so tests can check their plans use indexes. */
export function campaignQueries(
  db: Db,
  accountId: string,
  status: CampaignStatus | undefined,
  limit: number,
  offset: number,
) {
  const where = and(eq(campaigns.accountId, accountId), status ? eq(campaigns.status, status) : undefined);
  return {
    page: db
      .select()
      .from(campaigns)
      .where(where)
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(campaigns).where(where),
  };
}

export async function findCampaign(db: Db, accountId: string, id: string) {
  const rows = await db.select().from(campaigns).where(ofWorkspace(accountId, id)).limit(1);
  return rows[0] ?? null;
}

/** A new campaign's insert, for the batch that creates it. */
export const insertCampaignStatement = (db: Db, row: CampaignRow) => db.insert(campaigns).values(row);

/** Changes the campaign only while it is in one of `from`; answers the new row, or null. */
export async function moveCampaign(
  db: Db,
  accountId: string,
  id: string,
  from: CampaignStatus[],
  changes: Partial<typeof campaigns.$inferInsert>,
) {
  const rows = await db
    .update(campaigns)
    .set(changes)
    .where(and(ofWorkspace(accountId, id), inArray(campaigns.status, from)))
    .returning();
  return rows[0] ?? null;
}

/** Deletes a draft; answers whether it was deleted. */
export async function deleteDraft(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(campaigns)
    .where(and(ofWorkspace(accountId, id), eq(campaigns.status, "draft")))
    .returning({ id: campaigns.id });
  return rows.length > 0;
}

/** Which of `ids` are contact groups of the workspace. */
export async function ownGroupIds(db: Db, accountId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(
      and(
        eq(contactGroups.accountId, accountId),
        sql`${contactGroups.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/**
 * Scheduled campaigns whose time has come, across workspaces (the minute cron). A suspended
 * workspace's wait, still scheduled, and start on the first sweep after it is reinstated.
 */
export function dueScheduled(db: Db, now: number, limit: number) {
  return db
    .select({ id: campaigns.id, accountId: campaigns.accountId })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.status, "scheduled"),
        sql`${campaigns.scheduledAt} <= ${now}`,
        mayActSql(campaigns.accountId),
      ),
    )
    .limit(limit);
}

/**
 * Sending campaigns no batch touched since `before`: their chain of batches was lost. A suspended
 * workspace's campaign holds (its batch sent nothing): it is resumed here once reinstated.
 */
export function stalledSending(db: Db, before: number, limit: number) {
  return db
    .select({ id: campaigns.id, accountId: campaigns.accountId })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.status, "sending"),
        sql`${campaigns.updatedAt} < ${before}`,
        mayActSql(campaigns.accountId),
      ),
    )
    .limit(limit);
}
