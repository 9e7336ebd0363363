import { and, count, desc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type AutomationStatus, type AutomationTriggerType, automations } from "../../db/schema";

export type AutomationRow = typeof automations.$inferSelect;

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(automations.accountId, accountId), eq(automations.id, id));

/** The queries behind GET /v1/automations, newest first. */
export function automationQueries(
  db: Db,
  accountId: string,
  status: AutomationStatus | undefined,
  limit: number,
  offset: number,
) {
  const where = and(
    eq(automations.accountId, accountId),
    status ? eq(automations.status, status) : undefined,
  );
  return {
    page: db
      .select()
      .from(automations)
      .where(where)
      .orderBy(desc(automations.createdAt), desc(automations.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(automations).where(where),
  };
}

export async function findAutomation(db: Db, accountId: string, id: string) {
  const rows = await db.select().from(automations).where(ofWorkspace(accountId, id)).limit(1);
  return rows[0] ?? null;
}

/** A new automation's insert, for the batch that creates it. */
export const insertAutomationStatement = (db: Db, row: AutomationRow) => db.insert(automations).values(row);

/** Changes the automation only while it is in one of `from`; answers the new row, or null. */
export async function moveAutomation(
  db: Db,
  accountId: string,
  id: string,
  from: readonly AutomationStatus[],
  changes: Partial<typeof automations.$inferInsert>,
) {
  const rows = await db
    .update(automations)
    .set(changes)
    .where(and(ofWorkspace(accountId, id), inArray(automations.status, [...from])))
    .returning();
  return rows[0] ?? null;
}

/** Deletes the automation unless it is active; answers whether it was deleted. */
export async function deleteInactive(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(automations)
    .where(and(ofWorkspace(accountId, id), ne(automations.status, "active")))
    .returning({ id: automations.id });
  return rows.length > 0;
}

/** The workspace's active automations a trigger of this type and target enrols into. */
export function activeAutomationsFor(db: Db, accountId: string, type: AutomationTriggerType, ref: string) {
  return db
    .select()
    .from(automations)
    .where(
      and(
        eq(automations.accountId, accountId),
        eq(automations.triggerType, type),
        eq(automations.triggerRef, ref),
        eq(automations.status, "active"),
      ),
    );
}
