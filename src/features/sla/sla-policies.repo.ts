import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxes, slaPolicies, slaPolicyInboxes } from "../../db/schema";

export type SlaPolicyRow = typeof slaPolicies.$inferSelect;

/** A policy with the ids of its inboxes (a JSON array). */
const policyView = {
  policy: slaPolicies,
  inboxIds: sql<string>`(SELECT json_group_array(pi.inbox_id) FROM sla_policy_inboxes pi WHERE pi.policy_id = ${slaPolicies.id})`,
};
export type SlaPolicyView = { policy: SlaPolicyRow; inboxIds: string };

/** GET /v1/sla-policies: the workspace's policies, oldest first (a workspace has few). */
export const policiesQuery = (db: Db, accountId: string) =>
  db
    .select(policyView)
    .from(slaPolicies)
    .where(eq(slaPolicies.accountId, accountId))
    .orderBy(asc(slaPolicies.createdAt), asc(slaPolicies.id));

export async function findPolicy(db: Db, accountId: string, id: string): Promise<SlaPolicyView | null> {
  const rows = await db
    .select(policyView)
    .from(slaPolicies)
    .where(and(eq(slaPolicies.accountId, accountId), eq(slaPolicies.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** A ticket's policy by id, enabled or not (a ticket keeps the policy it started under). */
export async function policyById(db: Db, accountId: string, id: string): Promise<SlaPolicyRow | null> {
  const rows = await db
    .select()
    .from(slaPolicies)
    .where(and(eq(slaPolicies.accountId, accountId), eq(slaPolicies.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** How many of `ids` are inboxes of the workspace (one JSON parameter, clear of D1's limit). */
export async function workspaceInboxCount(db: Db, accountId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .select({ n: sql<number>`count(*)` })
    .from(inboxes)
    .where(
      and(
        eq(inboxes.accountId, accountId),
        sql`${inboxes.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    );
  return rows[0]?.n ?? 0;
}

/**
 * The statements that make `ids` the policy's inboxes: the others are released, the new ones
 * claimed. The inbox is the key of the link, so an inbox another policy holds fails the batch
 * (a unique violation the service answers as 409), whoever commits first.
 */
export const setPolicyInboxes = (db: Db, accountId: string, policyId: string, ids: string[]) => [
  db
    .delete(slaPolicyInboxes)
    .where(
      and(
        eq(slaPolicyInboxes.policyId, policyId),
        sql`${slaPolicyInboxes.inboxId} NOT IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    ),
  sql`INSERT INTO sla_policy_inboxes (inbox_id, policy_id, account_id)
      SELECT value, ${policyId}, ${accountId} FROM json_each(${JSON.stringify(ids)})
      WHERE NOT EXISTS (SELECT 1 FROM sla_policy_inboxes WHERE inbox_id = value AND policy_id = ${policyId})`,
];
