import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, eventsOf, ticketWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type Ticket = { id: string; status: string; message_count: number; customer_id: string; subject: string };

async function setup() {
  const { ws, ticket } = await ticketWorkspace("etag");
  const path = `/v1/tickets/${ticket.id}`;
  const get = (headers: Record<string, string> = {}) => call("GET", path, { token: ws.token, headers });
  const etag = async () => (await get()).headers.get("ETag") ?? "";
  const ticketNow = async () => (await callJson<Ticket>("GET", path, { token: ws.token })).body;
  return { ws, ticket, path, get, etag, ticketNow };
}

const changed = () => ({
  ...errorBody("Ticket changed", "ticket_changed"),
  message: expect.stringContaining("If-Match"),
});

describe("GET /v1/tickets/{id}: ETag", () => {
  it("answers a strong ETag that If-None-Match turns into a 304 until the ticket changes", async () => {
    const { get, etag } = await setup();
    const res = await get();
    const tag = res.headers.get("ETag") ?? "";
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(await etag()).toBe(tag);

    const notModified = await get({ "If-None-Match": tag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("ETag")).toBe(tag);
    expect(await notModified.text()).toBe("");
    expect((await get({ "If-None-Match": `"other", ${tag}` })).status).toBe(304);
    expect((await get({ "If-None-Match": "*" })).status).toBe(304);
    expect((await get({ "If-None-Match": `W/${tag}` })).status).toBe(304);
    expect((await get({ "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("moves with every change the ticket shows: a message, a status, tags, an action, its customer", async () => {
    const { ws, path, etag } = await setup();
    const seen = new Set([await etag()]);
    const expectNew = async () => {
      const tag = await etag();
      expect(seen.has(tag)).toBe(false);
      seen.add(tag);
    };
    await call("POST", `${path}/messages`, { token: ws.token, body: { type: "note", body_text: "n" } });
    await expectNew();
    await call("PATCH", path, { token: ws.token, body: { status: "pending" } });
    await expectNew();
    await call("POST", `${path}/tags`, { token: ws.token, body: { name: "vip" } });
    await expectNew();
    await call("POST", `${path}/manage`, {
      token: ws.token,
      body: { action: "set_priority", priority: "high" },
    });
    await expectNew();
    const { customer_id } = (await callJson<Ticket>("GET", path, { token: ws.token })).body;
    const renamed = await call("PATCH", `/v1/customers/${customer_id}`, {
      token: ws.token,
      body: { name: "Ada Lovelace" },
    });
    expect(renamed.status).toBe(200);
    await expectNew();
    // A draft changes nothing a GET of the ticket shows.
    const before = await etag();
    await call("POST", `${path}/messages`, {
      token: ws.token,
      body: { type: "reply", body_text: "d", draft: true },
    });
    expect(await etag()).toBe(before);
  });
});

describe("If-Match on PATCH /v1/tickets/{id}", () => {
  it("answers 412 ticket_changed and stores nothing when the ticket moved on", async () => {
    const { ws, path, etag, ticketNow } = await setup();
    const stale = await etag();
    await call("POST", `${path}/messages`, { token: ws.token, body: { type: "note", body_text: "seen?" } });
    const eventsBefore = (await eventsOf(ws.accountId)).length;

    const refused = await callJson("PATCH", path, {
      token: ws.token,
      headers: { "If-Match": stale },
      body: { status: "closed", subject: "Renamed" },
    });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual(changed());
    expect(await ticketNow()).toMatchObject({ status: "open", subject: "Help" });
    expect((await eventsOf(ws.accountId)).length).toBe(eventsBefore);

    const current = await etag();
    const done = await call("PATCH", path, {
      token: ws.token,
      headers: { "If-Match": current },
      body: { status: "closed" },
    });
    expect(done.status).toBe(200);
    const next = done.headers.get("ETag");
    expect(next).not.toBe(current);
    expect(next).toBe(await etag());
  });

  it("follows RFC 9110: * and lists match, a weak tag never does, malformed is a 400", async () => {
    const { ws, path, etag } = await setup();
    const patch = (ifMatch: string) =>
      call("PATCH", path, { token: ws.token, headers: { "If-Match": ifMatch }, body: { priority: "low" } });
    expect((await patch("*")).status).toBe(200);
    expect((await patch(`"nope", ${await etag()}`)).status).toBe(200);
    expect((await patch(`W/${await etag()}`)).status).toBe(412);
    expect((await patch('"nope"')).status).toBe(412);
    const bad = await callJson("PATCH", path, {
      token: ws.token,
      headers: { "If-Match": "not-a-tag" },
      body: { priority: "low" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_if_match" });
  });
});

describe("If-Match on POST /v1/tickets/{id}/messages", () => {
  it("refuses a reply over a message the client has not seen: 412, nothing stored or sent", async () => {
    const { ws, path, etag, ticketNow } = await setup();
    const stale = await etag();
    await call("POST", `${path}/messages`, {
      token: ws.token,
      body: { type: "customer", body_text: "Hello?" },
    });
    const before = await ticketNow();
    const emailsBefore = (await callJson<{ data: unknown[] }>("GET", "/v1/emails", { token: ws.token })).body
      .data.length;

    const refused = await callJson("POST", `${path}/messages`, {
      token: ws.token,
      headers: { "If-Match": stale },
      body: { type: "reply", body_text: "Answer" },
    });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual(changed());
    expect((await ticketNow()).message_count).toBe(before.message_count);
    const list = await callJson<{ data: unknown[] }>("GET", `${path}/messages`, { token: ws.token });
    expect(list.body.data.length).toBe(before.message_count);
    const emails = await callJson<{ data: unknown[] }>("GET", "/v1/emails", { token: ws.token });
    expect(emails.body.data.length).toBe(emailsBefore);

    const current = await etag();
    const sent = await call("POST", `${path}/messages`, {
      token: ws.token,
      headers: { "If-Match": current },
      body: { type: "reply", body_text: "Answer" },
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("ETag")).toBe(await etag());
  });

  it("lets exactly one of two parallel replies with the same If-Match through", async () => {
    const { ws, path, etag, ticketNow } = await setup();
    const tag = await etag();
    const reply = (text: string) =>
      call("POST", `${path}/messages`, {
        token: ws.token,
        headers: { "If-Match": tag },
        body: { type: "reply", body_text: text },
      });
    const answers = await Promise.all([reply("One"), reply("Two")]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 412]);
    expect((await ticketNow()).message_count).toBe(1);
  });

  it("checks If-Match on /manage too", async () => {
    const { ws, path, etag } = await setup();
    const stale = await etag();
    await call("PATCH", path, { token: ws.token, body: { priority: "high" } });
    const refused = await callJson("POST", `${path}/manage`, {
      token: ws.token,
      headers: { "If-Match": stale },
      body: { action: "close" },
    });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual(changed());
    const closed = await call("POST", `${path}/manage`, {
      token: ws.token,
      headers: { "If-Match": await etag() },
      body: { action: "close" },
    });
    expect(closed.status).toBe(200);
    expect(closed.headers.get("ETag")).toBe(await etag());
  });
});

describe("the version's triggers", () => {
  it("find the tickets they move by index: a customer's, a tag's, the checked one", async () => {
    const plans = [
      await planOf(sql`UPDATE tickets SET version = version + 1 WHERE customer_id = ${"cus_x"}`),
      await planOf(
        sql`UPDATE tickets SET version = version + 1 WHERE id IN (SELECT ticket_id FROM ticket_tags WHERE tag_id = ${"tag_x"})`,
      ),
      await planOf(
        sql`SELECT 1 FROM tickets t WHERE t.id = ${"tkv_x"} AND t.account_id = ${"acc_x"} AND t.version IN (SELECT value FROM json_each(${"[1]"}))`,
      ),
    ];
    for (const plan of plans) expectIndexed(plan, "tickets");
    expectIndexed(plans[1] ?? [], "ticket_tags");
  });
});
