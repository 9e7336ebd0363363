import { and, count, desc, eq } from "drizzle-orm";
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

export async function insertEndpoint(db: Db, row: typeof webhookEndpoints.$inferInsert) {
  const rows = await db.insert(webhookEndpoints).values(row).returning();
  return rows[0] ?? null;
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
