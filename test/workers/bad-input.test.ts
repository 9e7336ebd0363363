import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, seedInbox, sendingWorkspace } from "./helpers";

type Ticket = { id: string; subject: string };
type List<T> = { data: T[]; pagination: { total: number } };

/** A workspace that may send, an inbox on its domain and one ticket. */
async function setup() {
  const domain = `bad-${crypto.randomUUID().slice(0, 8)}.test`;
  const ws = await sendingWorkspace(domain);
  const inbox = await seedInbox(ws.accountId, `support@${domain}`);
  const ticket = (
    await callJson<Ticket>("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Help" },
    })
  ).body;
  return { ws, inbox, ticket, domain };
}

describe("path parameters are decoded once", () => {
  it("answers DELETE /v1/emails/suppressions/%25 with 404, not 500", async () => {
    const { ws } = await setup();
    const { status, body } = await callJson("DELETE", "/v1/emails/suppressions/%25", { token: ws.token });
    expect(status).toBe(404);
    expect(body).toMatchObject(errorBody("Not found", "not_found"));
  });

  it("deletes the suppression of an address that contains % or +", async () => {
    const { ws } = await setup();
    for (const email of ["100%off@example.com", "a+b@example.com"]) {
      expect(
        (await call("POST", "/v1/emails/suppressions", { token: ws.token, body: { email } })).status,
      ).toBe(201);
      const removed = await callJson("DELETE", `/v1/emails/suppressions/${encodeURIComponent(email)}`, {
        token: ws.token,
      });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ email, deleted: true });
    }
    const left = await callJson<List<unknown>>("GET", "/v1/emails/suppressions", { token: ws.token });
    expect(left.body.pagination.total).toBe(0);
  });
});

describe("q filters match their text literally", () => {
  it("finds order_123 through q and nothing that _ or % would match as wildcards", async () => {
    const { ws, inbox } = await setup();
    const subjects = [
      "order_123",
      "order1123",
      "orderX123",
      "100% sure",
      "1000 sure",
      "back\\slash",
      "backslash",
    ];
    for (const subject of subjects) {
      await call("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject },
      });
    }
    const found = async (q: string) => {
      const { body } = await callJson<List<Ticket>>("GET", `/v1/tickets?q=${encodeURIComponent(q)}`, {
        token: ws.token,
      });
      expect(body.pagination.total).toBe(body.data.length);
      return body.data.map((t) => t.subject);
    };
    expect(await found("order_123")).toEqual(["order_123"]);
    expect(await found("ORDER_1")).toEqual(["order_123"]);
    expect(await found("100%")).toEqual(["100% sure"]);
    expect(await found("k\\s")).toEqual(["back\\slash"]);
    expect(await found("_")).toEqual(["order_123"]);
  });
});
