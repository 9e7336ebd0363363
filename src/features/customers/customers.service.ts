import { type Db, runBatch } from "../../db/client";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/unique-violation";
import { isValidAddress } from "../../mail/address";
import { toCustomer } from "./customers.dto";
import {
  type CustomerFilter,
  type CustomerRow,
  countTicketsOf,
  customerQueries,
  deleteCustomerWithoutTickets,
  emailTakenByOther,
  findCustomer,
  insertCustomerStatement,
  updateCustomerAndSubscription,
  upsertCustomerByEmail,
} from "./customers.repo";
import type { CreateCustomerInput, UpdateCustomerInput } from "./customers.schemas";

export { toCustomer };

const CUSTOMER_EMAIL_INDEX = "customers.account_id, customers.email";

const customerExists = (email: string) =>
  conflict("customer_exists", "Customer already exists", `A customer with ${email} already exists.`);

/**
 * POST /v1/customers. The unique (account_id, email) index decides, so two racing creations cannot
 * both succeed; the row and the idempotent answer commit in one batch.
 */
export async function createCustomer(
  db: Db,
  accountId: string,
  input: CreateCustomerInput,
  now = Date.now(),
  idempotencyKey?: string,
) {
  const request = { key: idempotencyKey, scope: "customers", body: input };
  const created = await idempotentCreate({ db, accountId, now }, request, async (store) => {
    const row: CustomerRow = {
      id: newId("cus"),
      accountId,
      email: input.email,
      name: input.name ?? null,
      phone: input.phone ?? null,
      blocked: input.blocked ?? false,
      metadata: JSON.stringify(input.metadata ?? {}),
      unsubscribed: false,
      unsubscribedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const answer = toCustomer(row);
    try {
      await runBatch(db, [insertCustomerStatement(db, row), ...store.answer(201, answer)]);
    } catch (error) {
      if (isUniqueViolation(error, CUSTOMER_EMAIL_INDEX)) throw customerExists(input.email);
      throw error;
    }
    return { status: 201 as const, body: answer };
  });
  return created.body;
}

/** A page, newest first, and the filtered total, in one round trip. */
export async function listCustomers(db: Db, filter: CustomerFilter, limit: number, offset: number) {
  const { page, total } = customerQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return { customers: rows.map(toCustomer), total: totals[0]?.total ?? 0 };
}

export async function getCustomer(db: Db, accountId: string, id: string) {
  const row = await findCustomer(db, accountId, id);
  if (!row) throw notFound(`Customer ${id}`);
  return toCustomer(row);
}

export async function patchCustomer(
  db: Db,
  accountId: string,
  id: string,
  input: UpdateCustomerInput,
  now = Date.now(),
) {
  if (!(await findCustomer(db, accountId, id))) throw notFound(`Customer ${id}`);
  if (input.email !== undefined && (await emailTakenByOther(db, accountId, input.email, id))) {
    throw customerExists(input.email);
  }
  let updated: CustomerRow | null;
  try {
    updated = await updateCustomerAndSubscription(
      db,
      accountId,
      id,
      {
        email: input.email,
        name: input.name,
        phone: input.phone,
        blocked: input.blocked,
        metadata: input.metadata === undefined ? undefined : JSON.stringify(input.metadata),
        updatedAt: now,
      },
      input.unsubscribed,
      now,
    );
  } catch (error) {
    if (input.email !== undefined && isUniqueViolation(error)) throw customerExists(input.email);
    throw error;
  }
  if (!updated) throw notFound(`Customer ${id}`);
  return toCustomer(updated);
}

/** Tickets keep a required reference to their customer, so a customer with tickets stays. */
export async function removeCustomer(db: Db, accountId: string, id: string) {
  if (!(await findCustomer(db, accountId, id))) throw notFound(`Customer ${id}`);
  if (await deleteCustomerWithoutTickets(db, accountId, id)) return;
  const tickets = await countTicketsOf(db, accountId, id);
  throw conflict(
    "customer_has_tickets",
    "Customer has tickets",
    `Customer ${id} still has ${tickets} ticket(s); delete them before deleting the customer.`,
  );
}

/** The row a customer first found by `input.email` (valid, lowercase) is created with. */
export const newCustomerRow = (
  accountId: string,
  input: { email: string; name?: string | null; phone?: string | null },
  now: number,
) => ({
  id: newId("cus"),
  accountId,
  email: input.email,
  name: input.name?.trim() || null,
  phone: input.phone?.trim() || null,
  createdAt: now,
  updatedAt: now,
});

/**
 * The customer with this address, created if the workspace has none (ticket creation uses it).
 * The address is matched in any case. Two concurrent calls for a new address both answer the one
 * row the unique index let in. An existing customer is answered as it is: name and phone given
 * here never overwrite what the workspace already holds. Throws 400 for an invalid address.
 */
export async function findOrCreateCustomer(
  db: Db,
  accountId: string,
  input: { email: string; name?: string | null; phone?: string | null },
  now = Date.now(),
): Promise<CustomerRow> {
  const email = input.email.trim().toLowerCase();
  if (!isValidAddress(email)) {
    throw badRequest(
      "validation_error",
      "Invalid request",
      `${JSON.stringify(input.email)} is not an email address.`,
    );
  }
  const customer = await upsertCustomerByEmail(db, newCustomerRow(accountId, { ...input, email }, now));
  // Only a conflict on another unique key (a customer id taken twice) gets here: ids never repeat.
  if (!customer) throw new Error(`Customer ${email} could not be found or created`);
  return customer;
}
