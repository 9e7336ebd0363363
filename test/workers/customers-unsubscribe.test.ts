import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, seedWorkspace } from "./helpers";

type Customer = { id: string; unsubscribed: boolean; unsubscribed_at: string | null; updated_at: string };
type Record = {
  customer_id: string;
  account_id: string;
  campaign_id: string | null;
  method: string;
  created_at: number;
};

async function createCustomer(token: string, email: string) {
  const { status, body } = await callJson<Customer>("POST", "/v1/customers", { token, body: { email } });
  expect(status).toBe(201);
  return body;
}

const patch = (token: string, id: string, body: unknown) =>
  callJson<Customer>("PATCH", `/v1/customers/${id}`, { token, body });

async function recordsOf(customerId: string) {
  const rows = await env.DB_2.prepare("SELECT * FROM unsubscribes WHERE customer_id = ?")
    .bind(customerId)
    .all<Record>();
  return rows.results;
}

describe("customers' unsubscribed flag", () => {
  it("starts subscribed in every representation", async () => {
    const ws = await seedWorkspace();
    const created = await createCustomer(ws.token, "new@example.com");
    expect(created).toMatchObject({ unsubscribed: false, unsubscribed_at: null });
    const list = await callJson<{ data: Customer[] }>("GET", "/v1/customers", { token: ws.token });
    expect(list.body.data[0]).toMatchObject({ unsubscribed: false, unsubscribed_at: null });
  });

  it("PATCH true stamps unsubscribed_at and records method api; again keeps the first time", async () => {
    const ws = await seedWorkspace();
    const customer = await createCustomer(ws.token, "leaving@example.com");
    const before = Date.now();
    const first = await patch(ws.token, customer.id, { unsubscribed: true });
    expect(first.status).toBe(200);
    expect(first.body.unsubscribed).toBe(true);
    const stamped = Date.parse(first.body.unsubscribed_at ?? "");
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
    expect(await recordsOf(customer.id)).toEqual([
      {
        customer_id: customer.id,
        account_id: ws.accountId,
        campaign_id: null,
        method: "api",
        created_at: stamped,
      },
    ]);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await patch(ws.token, customer.id, { unsubscribed: true, name: "Still gone" });
    expect(again.body).toMatchObject({ unsubscribed: true, unsubscribed_at: first.body.unsubscribed_at });
    expect(await recordsOf(customer.id)).toHaveLength(1);

    const got = await callJson<Customer>("GET", `/v1/customers/${customer.id}`, { token: ws.token });
    expect(got.body).toMatchObject({ unsubscribed: true, unsubscribed_at: first.body.unsubscribed_at });
  });

  it("PATCH false clears unsubscribed_at and the record; a later unsubscribe is stamped anew", async () => {
    const ws = await seedWorkspace();
    const customer = await createCustomer(ws.token, "back@example.com");
    const first = await patch(ws.token, customer.id, { unsubscribed: true });
    const back = await patch(ws.token, customer.id, { unsubscribed: false });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ unsubscribed: false, unsubscribed_at: null });
    expect(await recordsOf(customer.id)).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await patch(ws.token, customer.id, { unsubscribed: true });
    expect(Date.parse(again.body.unsubscribed_at ?? "")).toBeGreaterThan(
      Date.parse(first.body.unsubscribed_at ?? ""),
    );
    expect(await recordsOf(customer.id)).toHaveLength(1);
  });

  it("other changes leave the flag alone, and a non-boolean is a 400", async () => {
    const ws = await seedWorkspace();
    const customer = await createCustomer(ws.token, "stay@example.com");
    await patch(ws.token, customer.id, { unsubscribed: true });
    const renamed = await patch(ws.token, customer.id, { name: "Stay" });
    expect(renamed.body.unsubscribed).toBe(true);
    const bad = await callJson<{ details: unknown[] }>("PATCH", `/v1/customers/${customer.id}`, {
      token: ws.token,
      body: { unsubscribed: "yes" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: "body.unsubscribed" })]);
    // Not settable at creation: a customer starts subscribed.
    const created = await call("POST", "/v1/customers", {
      token: ws.token,
      body: { email: "x@example.com", unsubscribed: true },
    });
    expect(created.status).toBe(400);
  });

  it("another workspace's customer is 404 and gets no record; deleting a customer removes its record", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const theirs = await createCustomer(b.token, "theirs@example.com");
    expect((await patch(a.token, theirs.id, { unsubscribed: true })).status).toBe(404);
    expect(await recordsOf(theirs.id)).toEqual([]);

    await patch(b.token, theirs.id, { unsubscribed: true });
    expect(await recordsOf(theirs.id)).toHaveLength(1);
    expect((await call("DELETE", `/v1/customers/${theirs.id}`, { token: b.token })).status).toBe(200);
    expect(await recordsOf(theirs.id)).toEqual([]);
  });
});
