import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailWebhookAttempts, emailWebhookOutbox, webhookEndpoints } from "../../db/schema";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

const ofAccount = (accountId: string, id: string) =>
  and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id));

export function endpointQueries(db: Db, accountId: string, limit: number, offset: number) {
  const where = eq(webhookEndpoints.accountId, accountId);
  return {
    page: db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(webhookEndpoints).where(where),
  };
}

/** The endpoint's id when the account has it: a query to batch with what depends on it. */
export const endpointQuery = (db: Db, accountId: string, id: string) =>
  db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(ofAccount(accountId, id)).limit(1);

export async function findEndpoint(db: Db, accountId: string, id: string) {
  const rows = await db.select().from(webhookEndpoints).where(ofAccount(accountId, id)).limit(1);
  return rows[0] ?? null;
}

export type NewEndpointRow = Omit<EndpointRow, "disabledReason" | "failingSince">;

/**
 * Inserts the endpoint only while its workspace has fewer than `max`, in one statement: D1 runs
 * statements one at a time, so concurrent creates never pass the limit.
 */
export const insertEndpointIfRoomStatement = (row: NewEndpointRow, max: number) => sql`
  INSERT INTO webhook_endpoints (id, account_id, url, events, enabled, secret, created_at, updated_at)
  SELECT ${row.id}, ${row.accountId}, ${row.url}, ${row.events}, ${row.enabled ? 1 : 0}, ${row.secret}, ${row.createdAt}, ${row.updatedAt}
  WHERE (SELECT count(*) FROM webhook_endpoints WHERE account_id = ${row.accountId}) < ${max}
  RETURNING id`;

/** False when the workspace had no room. */
export async function insertEndpointIfRoom(db: Db, row: NewEndpointRow, max: number) {
  return (await db.all<{ id: string }>(insertEndpointIfRoomStatement(row, max))).length > 0;
}

export async function countEndpoints(db: Db, accountId: string) {
  const rows = await db
    .select({ total: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId));
  return rows[0]?.total ?? 0;
}

export async function updateEndpoint(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof webhookEndpoints.$inferInsert>,
) {
  const rows = await db.update(webhookEndpoints).set(changes).where(ofAccount(accountId, id)).returning();
  return rows[0] ?? null;
}

export async function deleteEndpoint(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(ofAccount(accountId, id))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** An endpoint's attempts, newest first, each with the event it carried. */
export function attemptQueries(db: Db, accountId: string, endpointId: string, limit: number, offset: number) {
  const where = and(
    eq(emailWebhookAttempts.accountId, accountId),
    eq(emailWebhookAttempts.endpointId, endpointId),
  );
  return {
    page: db
      .select({
        eventId: emailWebhookOutbox.eventId,
        event: emailWebhookOutbox.event,
        body: emailWebhookOutbox.body,
        attempt: emailWebhookAttempts.attempt,
        statusCode: emailWebhookAttempts.statusCode,
        durationMs: emailWebhookAttempts.durationMs,
        error: emailWebhookAttempts.error,
        createdAt: emailWebhookAttempts.createdAt,
      })
      .from(emailWebhookAttempts)
      .innerJoin(emailWebhookOutbox, eq(emailWebhookOutbox.id, emailWebhookAttempts.outboxId))
      .where(where)
      .orderBy(desc(emailWebhookAttempts.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(emailWebhookAttempts).where(where),
  };
}

export type AttemptRow = Awaited<ReturnType<typeof attemptQueries>["page"]>[number];
