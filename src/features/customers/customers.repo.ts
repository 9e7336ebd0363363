import { and, count, desc, eq, ne, notExists, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customers, tickets } from "../../db/schema";
import { containsText } from "../../lib/like";
import { deleteUnsubscribe, insertUnsubscribe, subscriptionColumns } from "./unsubscribes.repo";

export type CustomerRow = typeof customers.$inferSelect;

export interface CustomerFilter {
  accountId: string;
  /** Lowercase, as stored. */
  email?: string | undefined;
  /** Text to find in the name or the email, in any case. */
  q?: string | undefined;
}

function whereOf(filter: CustomerFilter): SQL | undefined {
  return and(
    eq(customers.accountId, filter.accountId),
    filter.email === undefined ? undefined : eq(customers.email, filter.email),
    filter.q === undefined
      ? undefined
      : or(containsText(customers.name, filter.q), containsText(customers.email, filter.q)),
  );
}

/** The queries behind a list page, exposed so tests can check their plans use indexes. */
export function customerQueries(db: Db, filter: CustomerFilter, limit: number, offset: number) {
  const where = whereOf(filter);
  return {
    page: db
      .select()
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(customers).where(where),
  };
}

/** Inserts unless the workspace already has the address; answers the new row, or null. */
/** A new customer's insert, for the batch that creates it; a taken address fails the batch. */
export const insertCustomerStatement = (db: Db, row: CustomerRow) => db.insert(customers).values(row);

/**
 * The workspace's customer with this (lowercase) email, created from `row` when there is none:
 * one statement either way. The no-op update on conflict is what makes SQLite return the
 * existing row; it changes no column.
 */
/** The query of `upsertCustomerByEmail`, for a batch with other writes; it answers at most one row. */
export const upsertCustomerQuery = (db: Db, row: typeof customers.$inferInsert) =>
  db
    .insert(customers)
    .values(row)
    .onConflictDoUpdate({
      target: [customers.accountId, customers.email],
      set: { email: sql`excluded.email` },
    })
    .returning();

export async function upsertCustomerByEmail(db: Db, row: typeof customers.$inferInsert) {
  const rows = await upsertCustomerQuery(db, row);
  return rows[0] ?? null;
}

export async function findCustomer(db: Db, accountId: string, id: string) {
  const rows = await db
    .select()
    .from(customers)
    .where(and(eq(customers.accountId, accountId), eq(customers.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** Whether another customer of the workspace has the address. */
export async function emailTakenByOther(db: Db, accountId: string, email: string, id: string) {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.accountId, accountId), eq(customers.email, email), ne(customers.id, id)))
    .limit(1);
  return rows.length > 0;
}

export async function updateCustomer(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof customers.$inferInsert>,
) {
  const rows = await db
    .update(customers)
    .set(changes)
    .where(and(eq(customers.accountId, accountId), eq(customers.id, id)))
    .returning();
  return rows[0] ?? null;
}

/**
 * `updateCustomer`, plus, when `unsubscribed` is given, the subscription columns and the
 * unsubscribe record (method `api`) in the same batch, so the two never disagree.
 */
export async function updateCustomerAndSubscription(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof customers.$inferInsert>,
  unsubscribed: boolean | undefined,
  now: number,
) {
  if (unsubscribed === undefined) return updateCustomer(db, accountId, id, changes);
  const record = unsubscribed
    ? insertUnsubscribe(db, accountId, id, { method: "api", campaignId: null }, now)
    : deleteUnsubscribe(db, accountId, id);
  const update = db
    .update(customers)
    .set({ ...changes, ...subscriptionColumns(unsubscribed, now) })
    .where(and(eq(customers.accountId, accountId), eq(customers.id, id)))
    .returning();
  const [, rows] = await db.batch([record, update]);
  return rows[0] ?? null;
}

function ticketsOf(db: Db, accountId: string, customerId: string) {
  return db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.accountId, accountId), eq(tickets.customerId, customerId)));
}

/**
 * Deletes the customer only if no ticket refers to it, in one statement, so a ticket created
 * meanwhile cannot slip in between a check and the delete. Answers whether it was deleted.
 */
export async function deleteCustomerWithoutTickets(db: Db, accountId: string, id: string) {
  const rows = await db
    .delete(customers)
    .where(
      and(eq(customers.accountId, accountId), eq(customers.id, id), notExists(ticketsOf(db, accountId, id))),
    )
    .returning({ id: customers.id });
  return rows.length > 0;
}

export async function countTicketsOf(db: Db, accountId: string, customerId: string) {
  const rows = await db
    .select({ n: count() })
    .from(tickets)
    .where(and(eq(tickets.accountId, accountId), eq(tickets.customerId, customerId)));
  return rows[0]?.n ?? 0;
}
