import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { customers, inboxes, tickets } from "../../src/db/schema";
import { updateCustomer } from "../../src/features/customers/customers.repo";
import { findOrCreateCustomer } from "../../src/features/customers/customers.service";
import { newId } from "../../src/lib/ids";
import { isUniqueViolation } from "../../src/lib/unique-violation";
import { addKey, call, callJson, db, errorBody, seedWorkspace } from "./helpers";

type Customer = {
  id: string;
  email: string;
  name: string | null;
  phone: string | null;
  blocked: boolean;
  metadata: Record<string, unknown>;
  unsubscribed: boolean;
  unsubscribed_at: string | null;
  created_at: string;
  updated_at: string;
};
type CustomerList = { data: Customer[]; pagination: { limit: number; offset: number; total: number } };

async function createCustomer(token: string, body: Record<string, unknown>) {
  const { status, body: customer } = await callJson<Customer>("POST", "/v1/customers", { token, body });
  expect(status).toBe(201);
  return customer;
}

async function addTicket(accountId: string, customerId: string) {
  const now = Date.now();
  const inboxId = newId("inb");
  await db()
    .insert(inboxes)
    .values({
      id: inboxId,
      accountId,
      name: "Support",
      emailAddress: `${inboxId.toLowerCase()}@support.test`,
      createdAt: now,
      updatedAt: now,
    });
  const number = Math.floor(Math.random() * 1_000_000);
  await db()
    .insert(tickets)
    .values({
      id: newId("tkv"),
      accountId,
      inboxId,
      customerId,
      number,
      clientId: `SUP-${number}`,
      subject: "Help",
      sharedUuid: newId("shr"),
      createdAt: now,
      updatedAt: now,
    });
}

describe("customers API", () => {
  it("creates a customer with every field and defaults, and gets it", async () => {
    const ws = await seedWorkspace();
    const full = await createCustomer(ws.token, {
      email: " Ada@Example.COM ",
      name: "Ada Lovelace",
      phone: "+44 20 7946 0000",
      blocked: true,
      metadata: { plan: "pro", seats: 3 },
    });
    expect(full).toEqual({
      id: expect.stringMatching(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/),
      email: "ada@example.com",
      name: "Ada Lovelace",
      phone: "+44 20 7946 0000",
      blocked: true,
      metadata: { plan: "pro", seats: 3 },
      unsubscribed: false,
      unsubscribed_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: full.created_at,
    });
    const bare = await createCustomer(ws.token, { email: "bob@example.com" });
    expect(bare).toMatchObject({ name: null, phone: null, blocked: false, metadata: {} });
    const got = await callJson<Customer>("GET", `/v1/customers/${full.id}`, { token: ws.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(full);
  });

  it("refuses a duplicate email in any case with 409 customer_exists", async () => {
    const ws = await seedWorkspace();
    await createCustomer(ws.token, { email: "dup@example.com" });
    const { status, body } = await callJson("POST", "/v1/customers", {
      token: ws.token,
      body: { email: "DUP@Example.com" },
    });
    expect(status).toBe(409);
    expect(body).toEqual({
      ...errorBody("Customer already exists", "customer_exists"),
      message: expect.any(String),
    });
    // Another workspace may have the same address.
    const other = await seedWorkspace();
    await createCustomer(other.token, { email: "dup@example.com" });
  });

  it.each([
    ["a bad email", { email: "not an email" }],
    ["a named address", { email: "Ada <ada@example.com>" }],
    ["no email", { name: "Ada" }],
    ["metadata that is not an object", { email: "m@example.com", metadata: [1, 2] }],
    ["an unknown field", { email: "u@example.com", vip: true }],
    ["a non-boolean blocked", { email: "b@example.com", blocked: "yes" }],
  ])("refuses %s with 400", async (_name, body) => {
    const ws = await seedWorkspace();
    const res = await callJson("POST", "/v1/customers", { token: ws.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "Invalid request", code: "validation_error" });
  });

  it("refuses metadata over 16 KB", async () => {
    const ws = await seedWorkspace();
    const metadata = { blob: "x".repeat(17_000) };
    expect(
      (await call("POST", "/v1/customers", { token: ws.token, body: { email: "big@example.com", metadata } }))
        .status,
    ).toBe(400);
  });

  it("updates any field, clears with null, and checks email duplicates in any case", async () => {
    const ws = await seedWorkspace();
    const ada = await createCustomer(ws.token, { email: "ada@example.com", name: "Ada", metadata: { a: 1 } });
    await createCustomer(ws.token, { email: "taken@example.com" });
    await new Promise((resolve) => setTimeout(resolve, 5));

    const patched = await callJson<Customer>("PATCH", `/v1/customers/${ada.id}`, {
      token: ws.token,
      body: { blocked: true, name: null, phone: "555", metadata: { b: 2 }, email: "ADA@example.org" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      email: "ada@example.org",
      name: null,
      phone: "555",
      blocked: true,
      metadata: { b: 2 },
      created_at: ada.created_at,
    });
    expect(patched.body.updated_at > ada.updated_at).toBe(true);

    // Its own address in another case is no conflict.
    const same = await callJson<Customer>("PATCH", `/v1/customers/${ada.id}`, {
      token: ws.token,
      body: { email: "Ada@Example.org" },
    });
    expect(same.status).toBe(200);

    const dup = await callJson("PATCH", `/v1/customers/${ada.id}`, {
      token: ws.token,
      body: { email: "TAKEN@example.com" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: "Customer already exists", code: "customer_exists" });

    for (const body of [{}, { email: "nope" }, { id: "cus_X" }]) {
      expect((await call("PATCH", `/v1/customers/${ada.id}`, { token: ws.token, body })).status).toBe(400);
    }
  });

  it("answers a unique violation that slips past the check as a recognisable error", async () => {
    const ws = await seedWorkspace();
    const a = await createCustomer(ws.token, { email: "race-a@example.com" });
    await createCustomer(ws.token, { email: "race-b@example.com" });
    const error = await updateCustomer(db(), ws.accountId, a.id, { email: "race-b@example.com" }).catch(
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error("FOREIGN KEY constraint failed"))).toBe(false);
  });

  it("deletes a customer without tickets and refuses one with tickets", async () => {
    const ws = await seedWorkspace();
    const gone = await createCustomer(ws.token, { email: "gone@example.com" });
    expect((await callJson("DELETE", `/v1/customers/${gone.id}`, { token: ws.token })).body).toEqual({
      id: gone.id,
      deleted: true,
    });
    expect((await call("GET", `/v1/customers/${gone.id}`, { token: ws.token })).status).toBe(404);

    const kept = await createCustomer(ws.token, { email: "kept@example.com" });
    await addTicket(ws.accountId, kept.id);
    const refused = await callJson<{ message: string }>("DELETE", `/v1/customers/${kept.id}`, {
      token: ws.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      ...errorBody("Customer has tickets", "customer_has_tickets"),
      message: expect.stringContaining("1 ticket"),
    });
    expect((await call("GET", `/v1/customers/${kept.id}`, { token: ws.token })).status).toBe(200);
  });

  it("answers 404 for another workspace's customer on every route", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const theirs = await createCustomer(b.token, { email: "theirs@example.com" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "Mine now" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await callJson(method, `/v1/customers/${theirs.id}`, { token: a.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ error: "Not found", code: "not_found" });
    }
    expect((await call("GET", "/v1/customers/cus_missing", { token: a.token })).status).toBe(404);
    const list = await callJson<CustomerList>("GET", "/v1/customers", { token: a.token });
    expect(list.body.pagination.total).toBe(0);
    expect(
      (await callJson<Customer>("GET", `/v1/customers/${theirs.id}`, { token: b.token })).body.name,
    ).toBe(null);
  });

  it("lets read keys read and refuses them every write with 403", async () => {
    const ws = await seedWorkspace();
    const read = await addKey(ws.accountId, "read");
    const write = await addKey(ws.accountId, "write");
    const customer = await createCustomer(write.token, { email: "w@example.com" });
    expect((await call("GET", "/v1/customers", { token: read.token })).status).toBe(200);
    expect((await call("GET", `/v1/customers/${customer.id}`, { token: read.token })).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/v1/customers", { email: "r@example.com" }],
      ["PATCH", `/v1/customers/${customer.id}`, { blocked: true }],
      ["DELETE", `/v1/customers/${customer.id}`, undefined],
    ] as const) {
      expect((await call(method, path, { token: read.token, body })).status, method).toBe(403);
    }
  });
});

describe("GET /v1/customers", () => {
  it("pages newest first with limit 50 by default and counts the filtered total", async () => {
    const ws = await seedWorkspace();
    const now = Date.now();
    // Direct inserts, one statement each (D1 binds at most 100 parameters per statement).
    const rows = Array.from({ length: 55 }, (_, i) =>
      db()
        .insert(customers)
        .values({
          id: newId("cus"),
          accountId: ws.accountId,
          email: `c${i}@example.com`,
          createdAt: now + i,
          updatedAt: now + i,
        }),
    );
    const [head, ...tail] = rows;
    if (head) await db().batch([head, ...tail]);
    const first = await callJson<CustomerList>("GET", "/v1/customers", { token: ws.token });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ limit: 50, offset: 0, total: 55 });
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0]?.email).toBe("c54@example.com");
    const rest = await callJson<CustomerList>("GET", "/v1/customers?limit=10&offset=50", { token: ws.token });
    expect(rest.body.pagination).toEqual({ limit: 10, offset: 50, total: 55 });
    expect(rest.body.data.map((c) => c.email)).toEqual([4, 3, 2, 1, 0].map((i) => `c${i}@example.com`));
    for (const query of ["limit=101", "limit=0", "offset=-1", "limit=abc"]) {
      expect((await call("GET", `/v1/customers?${query}`, { token: ws.token })).status, query).toBe(400);
    }
  });

  it("filters by exact email in any case and by text in the name or email", async () => {
    const ws = await seedWorkspace();
    await createCustomer(ws.token, { email: "grace@navy.mil", name: "Grace Hopper" });
    await createCustomer(ws.token, { email: "ada@example.com", name: "Ada Lovelace" });
    await createCustomer(ws.token, { email: "alan@example.org", name: "Alan 100%_Turing" });
    const emails = async (query: string) => {
      const { body } = await callJson<CustomerList>("GET", `/v1/customers?${query}`, { token: ws.token });
      expect(body.pagination.total).toBe(body.data.length);
      return body.data.map((c) => c.email);
    };
    expect(await emails("email=ADA%40Example.com")).toEqual(["ada@example.com"]);
    expect(await emails("email=ada")).toEqual([]);
    expect(await emails("q=LOVE")).toEqual(["ada@example.com"]);
    expect(await emails("q=EXAMPLE")).toEqual(["alan@example.org", "ada@example.com"]);
    expect(await emails("q=navy.MIL")).toEqual(["grace@navy.mil"]);
    expect(await emails("q=%25_")).toEqual(["alan@example.org"]);
    expect(await emails("q=_")).toEqual(["alan@example.org"]);
    expect(await emails("q=example&email=alan%40example.org")).toEqual(["alan@example.org"]);
  });
});

describe("findOrCreateCustomer", () => {
  it("creates once, then finds the same row in any case, per workspace", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const created = await findOrCreateCustomer(db(), ws.accountId, {
      email: " Lin@Example.com ",
      name: "Lin",
      phone: "123",
    });
    expect(created).toMatchObject({ email: "lin@example.com", name: "Lin", phone: "123", blocked: false });
    const again = await findOrCreateCustomer(db(), ws.accountId, { email: "LIN@EXAMPLE.COM", name: "Other" });
    expect(again).toEqual(created);
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => findOrCreateCustomer(db(), ws.accountId, { email: "race@example.com" })),
    );
    expect(new Set(concurrent.map((c) => c.id)).size).toBe(1);
    const elsewhere = await findOrCreateCustomer(db(), other.accountId, { email: "lin@example.com" });
    expect(elsewhere.id).not.toBe(created.id);
    const count = await env.DB_2.prepare("SELECT count(*) AS n FROM customers WHERE account_id = ?")
      .bind(ws.accountId)
      .first<{ n: number }>();
    expect(count?.n).toBe(2);
    await expect(findOrCreateCustomer(db(), ws.accountId, { email: "nope" })).rejects.toMatchObject({
      status: 400,
    });
  });
});
