import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contactGroupMembers, contactGroups, customers } from "../../db/schema";

/**
 * The page query behind GET /v1/contact-groups/{id}/members, newest member first, exposed so tests
 * can check its plan uses indexes. Its total is the group's `member_count`, never a count.
 */
export function memberPageQuery(db: Db, accountId: string, groupId: string, limit: number, offset: number) {
  return (
    db
      // Aliased: a D1 batch answers rows keyed by column name, where two `created_at` would collide.
      .select({
        ...getTableColumns(customers),
        addedAt: sql<number>`${contactGroupMembers.createdAt}`.as("added_at"),
      })
      .from(contactGroupMembers)
      .innerJoin(customers, eq(customers.id, contactGroupMembers.customerId))
      .where(and(eq(contactGroupMembers.accountId, accountId), eq(contactGroupMembers.groupId, groupId)))
      .orderBy(desc(contactGroupMembers.createdAt), desc(contactGroupMembers.customerId))
      .limit(limit)
      .offset(offset)
  );
}

export type MemberRow = Awaited<ReturnType<typeof memberPageQuery>>[number];

export interface NewCustomer {
  id: string;
  email: string;
  name: string | null;
}

/** Creates the customers whose address the workspace does not have yet; the others are left alone. */
export function insertNewCustomers(accountId: string, rows: readonly NewCustomer[], now: number) {
  // The WHERE keeps SQLite from reading ON CONFLICT as a join constraint.
  return sql`
    INSERT INTO customers (id, account_id, email, name, created_at, updated_at)
    SELECT j.value ->> 'id', ${accountId}, j.value ->> 'email', j.value ->> 'name', ${now}, ${now}
    FROM json_each(${JSON.stringify(rows)}) AS j WHERE true
    ON CONFLICT DO NOTHING`;
}

/** How an add names its customers: by address (lowercase) or by id. */
export type MemberKey =
  | { column: "email"; values: readonly string[] }
  | { column: "id"; values: readonly string[] };

/**
 * The ids of the workspace's customers that the key names, exposed so tests can check its plan.
 * The JSON list drives the loop (CROSS JOIN keeps that order), so each named customer is one index
 * lookup, never a walk over all of the workspace's customers.
 */
export function customersByKeyQuery(accountId: string, key: MemberKey) {
  const match =
    key.column === "email"
      ? sql`c.account_id = ${accountId} AND c.email = j.value`
      : sql`c.id = j.value AND c.account_id = ${accountId}`;
  return sql`SELECT c.id AS id FROM json_each(${JSON.stringify(key.values)}) AS j CROSS JOIN ${customers} AS c ON ${match}`;
}

/**
 * Makes the named customers of the workspace members of the group, skipping existing members, and
 * answers the ids that joined (RETURNING lists only rows really inserted). Nothing is written if
 * the group is gone by the time the batch runs. The `member_count` triggers count each insert.
 */
export function insertMembers(accountId: string, groupId: string, key: MemberKey, now: number) {
  const named = customersByKeyQuery(accountId, key);
  return sql`
    INSERT INTO contact_group_members (group_id, customer_id, account_id, created_at)
    SELECT ${groupId}, c.id, ${accountId}, ${now} FROM (${named}) AS c
    WHERE EXISTS (SELECT 1 FROM ${contactGroups} WHERE ${contactGroups.id} = ${groupId} AND ${contactGroups.accountId} = ${accountId})
    ON CONFLICT DO NOTHING
    RETURNING customer_id`;
}

/**
 * Adds the joiners of the member insert just before it to the idempotent answer this batch stores
 * under `key`. `changes()` is the row count of the statement that completed last in the batch's
 * connection: that insert (writes of the `member_count` triggers are not counted).
 */
export function countJoinersInto(accountId: string, key: string) {
  return sql`
    UPDATE idempotency_keys
    SET response_body = json_object(
      'added', (response_body ->> 'added') + changes(),
      'skipped', (response_body ->> 'skipped') - changes())
    WHERE account_id = ${accountId} AND key = ${key}`;
}

/** Answers whether the customer was a member of the workspace's group. */
export async function deleteMember(db: Db, accountId: string, groupId: string, customerId: string) {
  const rows = await db
    .delete(contactGroupMembers)
    .where(
      and(
        eq(contactGroupMembers.accountId, accountId),
        eq(contactGroupMembers.groupId, groupId),
        eq(contactGroupMembers.customerId, customerId),
      ),
    )
    .returning({ customerId: contactGroupMembers.customerId });
  return rows.length > 0;
}
