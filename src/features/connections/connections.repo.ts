import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { connections, inboxes } from "../../db/schema";

export type ConnectionRow = typeof connections.$inferSelect;

export function insertConnection(db: Db, row: typeof connections.$inferInsert) {
  return db.insert(connections).values(row).onConflictDoNothing().returning();
}

export function listConnections(db: Db, accountId: string) {
  return db
    .select()
    .from(connections)
    .where(eq(connections.accountId, accountId))
    .orderBy(desc(connections.createdAt), desc(connections.id));
}

export async function findConnection(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(connections)
    .where(and(eq(connections.accountId, accountId), eq(connections.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findConnectionByDomain(db: Db, accountId: string, domain: string) {
  const rows = await db
    .select()
    .from(connections)
    .where(and(eq(connections.accountId, accountId), eq(connections.domain, domain)))
    .limit(1);
  return rows[0] ?? null;
}

export async function updateConnection(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof connections.$inferInsert>,
) {
  const rows = await db
    .update(connections)
    .set(changes)
    .where(and(eq(connections.accountId, accountId), eq(connections.id, id)))
    .returning();
  return rows[0] ?? null;
}

export function deleteConnection(db: Db, accountId: string, id: string) {
  return db.delete(connections).where(and(eq(connections.accountId, accountId), eq(connections.id, id)));
}

/** Ids of the workspace's inboxes that send through a connection. */
export async function inboxesUsing(db: Db, accountId: string, connectionId: string) {
  const rows = await db
    .select({ id: inboxes.id })
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.connectionId, connectionId)))
    .limit(20);
  return rows.map((r) => r.id);
}
