import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { customers, tickets } from "../../src/db/schema";
import { decryptSecret } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { webhookUrlProblem } from "../../src/webhooks/url-guard";
import {
  addKey,
  seedWorkspace as bareWorkspace,
  call,
  callJson,
  db,
  errorBody,
  verifiedDomain,
} from "./helpers";

type Webhook = { url: string; events: string[]; enabled: boolean; secret: string };
type Inbox = {
  id: string;
  name: string;
  email_address: string;
  connection_id: string | null;
  status_after_reply: string;
  webhooks: Webhook[];
  created_at: string;
  updated_at: string;
};
type Details = { details: Array<{ path: string; message: string }> };

/** Addresses are unique across the service and storage is shared by the file: each test makes its own. */
const address = (label = "support") => `${label}-${crypto.randomUUID().slice(0, 8)}@acme.test`;

/** A workspace that verified acme.test, so it may have inboxes at `address()`. */
async function seedWorkspace() {
  const ws = await bareWorkspace();
  return { ...ws, connection: await verifiedDomain(ws.accountId, "acme.test") };
}
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
const hook = (url = "https://hooks.example.com/in", extra: Partial<Webhook> = {}) => ({
  url,
  events: ["ticket.created"],
  ...extra,
});

async function createInbox(token: string, body: Record<string, unknown> = {}) {
  const res = await callJson<Inbox>("POST", "/v1/inboxes", {
    token,
    body: { name: "Support", email_address: address(), ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const eventsOf = async (inboxId: string) =>
  (
    await env.DB_2.prepare("SELECT event, data FROM events WHERE inbox_id = ? ORDER BY created_at, id")
      .bind(inboxId)
      .all<{ event: string; data: string }>()
  ).results.map((row) => ({ event: row.event, data: JSON.parse(row.data) as unknown }));

/** A request through the app with ENVIRONMENT overridden, as a production deployment would run. */
async function inProduction(token: string, body: unknown) {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request("http://localhost/v1/inboxes", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    { ...env, ENVIRONMENT: "production" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as Inbox & Details };
}

describe("inboxes", () => {
  it("creates an inbox with defaults, lowercases the address and reads it back", async () => {
    const ws = await seedWorkspace();
    const email = address("Help").toUpperCase();
    const created = await createInbox(ws.token, { email_address: email });
    expect(created).toEqual({
      id: expect.stringMatching(/^inb_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "Support",
      email_address: email.toLowerCase(),
      connection_id: ws.connection.id,
      status_after_reply: "pending",
      assignment_rule: "manual",
      webhooks: [],
      created_at: expect.any(String),
      updated_at: created.created_at,
    });
    const got = await callJson<Inbox>("GET", `/v1/inboxes/${created.id}`, { token: ws.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);
  });

  it("takes connection_id only when it names the connection of the address's domain", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const own = await verifiedDomain(ws.accountId, "own-inbox.test");
    const foreign = await verifiedDomain(other.accountId, "foreign-inbox.test");
    const at = (domain: string) => `support-${crypto.randomUUID().slice(0, 8)}@${domain}`;
    expect(
      (await createInbox(ws.token, { email_address: at("own-inbox.test"), connection_id: own.id }))
        .connection_id,
    ).toBe(own.id);
    for (const id of [foreign.id, "con_nope"]) {
      const res = await callJson("POST", "/v1/inboxes", {
        token: ws.token,
        body: { name: "X", email_address: address(), connection_id: id },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(errorBody("Connection not found", "connection_not_found"));
    }
    for (const id of [own.id, null]) {
      const res = await callJson<Details>("POST", "/v1/inboxes", {
        token: ws.token,
        body: { name: "X", email_address: address(), connection_id: id },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(
        errorBody("Connection does not match the address", "connection_mismatch"),
      );
      expect(res.body.details).toEqual([{ path: "body.connection_id", message: expect.any(String) }]);
    }
  });

  it("lists page by page, newest first, with page 1 and limit 50 by default", async () => {
    const ws = await seedWorkspace();
    const made = [];
    for (const name of ["a", "b", "c"]) made.push(await createInbox(ws.token, { name }));
    const all = await callJson<{ data: Inbox[]; pagination: unknown }>("GET", "/v1/inboxes", {
      token: ws.token,
    });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 50, total: 3, pages: 1 });
    expect(all.body.data.map((i) => i.name)).toEqual(["c", "b", "a"]);
    const second = await callJson<{ data: Inbox[]; pagination: unknown }>(
      "GET",
      "/v1/inboxes?page=2&limit=2",
      {
        token: ws.token,
      },
    );
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
    expect(second.body.data.map((i) => i.id)).toEqual([made[0]?.id]);
    for (const query of ["limit=101", "limit=0", "page=0"]) {
      expect((await call("GET", `/v1/inboxes?${query}`, { token: ws.token })).status).toBe(400);
    }
  });

  it("updates the fields sent and records inbox.updated with the new state", async () => {
    const ws = await seedWorkspace();
    const connection = await verifiedDomain(ws.accountId, "patch-inbox.test");
    const inbox = await createInbox(ws.token);
    expect(await eventsOf(inbox.id)).toEqual([]);
    const email = `billing-${crypto.randomUUID().slice(0, 8)}@patch-inbox.test`;
    const res = await callJson<Inbox>("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: { name: "Billing", email_address: email, status_after_reply: "closed" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Billing", email_address: email, status_after_reply: "closed" });
    expect(res.body.connection_id).toBe(connection.id);
    expect(await eventsOf(inbox.id)).toEqual([
      { event: "inbox.updated", data: { inbox: { id: inbox.id, name: "Billing", email_address: email } } },
    ]);
    const empty = await call("PATCH", `/v1/inboxes/${inbox.id}`, { token: ws.token, body: {} });
    expect(empty.status).toBe(400);
  });

  it("deletes the inbox with its tickets and records inbox.deleted with its last state", async () => {
    const ws = await seedWorkspace();
    const inbox = await createInbox(ws.token, { name: "Doomed" });
    const customerId = newId("cus");
    const ticketId = newId("tkv");
    const now = Date.now();
    await db()
      .insert(customers)
      .values({ id: customerId, accountId: ws.accountId, email: "c@x.test", createdAt: now, updatedAt: now });
    await db()
      .insert(tickets)
      .values({
        id: ticketId,
        accountId: ws.accountId,
        inboxId: inbox.id,
        customerId,
        number: 1,
        clientId: "TKT-00001",
        subject: "Hi",
        sharedUuid: newId("shr"),
        createdAt: now,
        updatedAt: now,
      });
    const res = await callJson("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token });
    expect(res).toMatchObject({ status: 200, body: { id: inbox.id, deleted: true } });
    expect((await call("GET", `/v1/inboxes/${inbox.id}`, { token: ws.token })).status).toBe(404);
    expect(await env.DB_2.prepare("SELECT id FROM tickets WHERE id = ?").bind(ticketId).first()).toBeNull();
    expect(await eventsOf(inbox.id)).toEqual([
      {
        event: "inbox.deleted",
        data: { inbox: { id: inbox.id, name: "Doomed", email_address: inbox.email_address } },
      },
    ]);
    expect((await call("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token })).status).toBe(404);
  });

  it("answers 409 for an address any inbox has, in any case and in any workspace", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const taken = await createInbox(ws.token);
    const mine = await createInbox(ws.token);
    const attempts = [
      ["POST", "/v1/inboxes", ws.token, { name: "Dup", email_address: taken.email_address.toUpperCase() }],
      ["POST", "/v1/inboxes", other.token, { name: "Dup", email_address: taken.email_address }],
      ["PATCH", `/v1/inboxes/${mine.id}`, ws.token, { email_address: taken.email_address }],
    ] as const;
    for (const [method, path, token, body] of attempts) {
      const res = await callJson(method, path, { token, body });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject(errorBody("Email address already in use", "email_address_taken"));
    }
    const same = await call("PATCH", `/v1/inboxes/${mine.id}`, {
      token: ws.token,
      body: { email_address: mine.email_address },
    });
    expect(same.status).toBe(200);
  });

  it("keeps the workspace's inboxes to itself and writes to write keys", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const inbox = await createInbox(ws.token);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const res = await callJson(method, `/v1/inboxes/${inbox.id}`, {
        token: other.token,
        body: method === "PATCH" ? { name: "Mine" } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject(errorBody("Not found", "not_found"));
    }
    const list = await callJson<{ data: Inbox[] }>("GET", "/v1/inboxes", { token: other.token });
    expect(list.body.data).toEqual([]);

    const read = await addKey(ws.accountId, "read");
    expect((await call("GET", `/v1/inboxes/${inbox.id}`, { token: read.token })).status).toBe(200);
    const writes = [
      call("POST", "/v1/inboxes", { token: read.token, body: { name: "X", email_address: address() } }),
      call("PATCH", `/v1/inboxes/${inbox.id}`, { token: read.token, body: { name: "X" } }),
      call("DELETE", `/v1/inboxes/${inbox.id}`, { token: read.token }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(403);
    const write = await addKey(ws.accountId, "write");
    expect(
      (await call("PATCH", `/v1/inboxes/${inbox.id}`, { token: write.token, body: { name: "Y" } })).status,
    ).toBe(200);
  });
});

describe("inbox addresses and verified domains", () => {
  const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}.test`;
  const create = (token: string, email_address: string) =>
    callJson<Inbox & { domain?: string; help?: string }>("POST", "/v1/inboxes", {
      token,
      body: { name: "Support", email_address },
    });

  it("refuses support@stripe.com to a workspace that has not verified stripe.com", async () => {
    const ws = await bareWorkspace();
    const res = await create(ws.token, "support@stripe.com");
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      ...errorBody("Inbox domain not verified", "inbox_domain_not_verified"),
      domain: "stripe.com",
      help: expect.stringContaining('POST /v1/connections {"domain":"stripe.com"}'),
    });
    expect(
      await env.DB_2.prepare("SELECT id FROM inboxes WHERE account_id = ?").bind(ws.accountId).all(),
    ).toEqual(expect.objectContaining({ results: [] }));
  });

  it("does not take a pending or failed connection for a verified one", async () => {
    const ws = await bareWorkspace();
    const domain = unique("pending");
    const connection = (
      await callJson<{ id: string; status: string }>("POST", "/v1/connections", {
        token: ws.token,
        body: { domain },
      })
    ).body;
    expect(connection.status).toBe("pending");
    for (const status of ["pending", "failed"]) {
      await env.DB_2.prepare("UPDATE connections SET status = ? WHERE id = ?")
        .bind(status, connection.id)
        .run();
      const res = await create(ws.token, `support@${domain}`);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "inbox_domain_not_verified", domain });
      expect(res.body.help).toContain(`POST /v1/connections/${connection.id}/verify`);
    }
  });

  it("refuses a PATCH that moves the address to a domain the workspace has not verified", async () => {
    const ws = await seedWorkspace();
    const inbox = await createInbox(ws.token);
    const res = await callJson<Inbox & { domain?: string }>("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: { email_address: "support@stripe.com" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "inbox_domain_not_verified", domain: "stripe.com" });
    const after = await callJson<Inbox>("GET", `/v1/inboxes/${inbox.id}`, { token: ws.token });
    expect(after.body).toEqual(inbox);
  });

  it("sets connection_id to the connection of the address's domain", async () => {
    const ws = await bareWorkspace();
    const domain = unique("linked");
    const connection = await verifiedDomain(ws.accountId, domain);
    const res = await create(ws.token, `Help@${domain.toUpperCase()}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email_address: `help@${domain}`, connection_id: connection.id });
    const deletion = await callJson("DELETE", `/v1/connections/${connection.id}`, { token: ws.token });
    expect(deletion.status).toBe(409);
    expect(deletion.body).toMatchObject(errorBody("Connection in use", "connection_in_use"));
  });

  it("tells a workspace without the domain nothing about who holds an address on it", async () => {
    const holder = await bareWorkspace();
    const domain = unique("held");
    await verifiedDomain(holder.accountId, domain);
    expect((await create(holder.token, `support@${domain}`)).status).toBe(201);
    const stranger = await bareWorkspace();
    const taken = await create(stranger.token, `support@${domain}`);
    const free = await create(stranger.token, `nobody@${domain}`);
    expect(taken.status).toBe(403);
    expect({ ...taken.body, request_id: "" }).toEqual({ ...free.body, request_id: "" });
  });

  it("answers the same 409 whether the address is the workspace's own or another's", async () => {
    const domain = unique("shared");
    const [mine, theirs] = [await bareWorkspace(), await bareWorkspace()];
    // Both proved control of the domain: each may hold addresses on it, never the same one.
    await verifiedDomain(mine.accountId, domain);
    await verifiedDomain(theirs.accountId, domain);
    const held = (await create(theirs.token, `support@${domain}`)).body;
    const own = (await create(mine.token, `sales@${domain}`)).body;
    const overOwn = await create(mine.token, `sales@${domain}`);
    const overTheirs = await create(mine.token, `support@${domain}`);
    expect([overOwn.status, overTheirs.status]).toEqual([409, 409]);
    const strip = (body: object) =>
      JSON.stringify({ ...body, request_id: "" }).replace(/(sales|support)@/, "x@");
    expect(strip(overTheirs.body)).toBe(strip(overOwn.body));
    for (const secret of [theirs.accountId, held.id, own.id, mine.accountId]) {
      expect(JSON.stringify(overTheirs.body)).not.toContain(secret);
    }
  });
});

describe("inbox webhooks", () => {
  it("keeps a sent secret, generates a missing one and replaces the whole list", async () => {
    const ws = await seedWorkspace();
    const mine = `whsec_${"A".repeat(40)}`;
    const inbox = await createInbox(ws.token, {
      webhooks: [hook("https://a.example.com/h", { secret: mine }), hook("https://b.example.com/h")],
    });
    const [a, b] = inbox.webhooks;
    expect(a).toEqual({
      url: "https://a.example.com/h",
      events: ["ticket.created"],
      enabled: true,
      secret: mine,
    });
    expect(b?.secret).toMatch(SECRET);

    const renamed = await callJson<Inbox>("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: { name: "R" },
    });
    expect(renamed.body.webhooks).toEqual(inbox.webhooks);

    const replaced = await callJson<Inbox>("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: {
        webhooks: [{ ...b, enabled: false }, hook("https://c.example.com/h", { events: ["inbox.deleted"] })],
      },
    });
    expect(replaced.status).toBe(200);
    const [first, second, ...rest] = replaced.body.webhooks;
    expect(first).toEqual({ ...b, enabled: false });
    expect(second).toMatchObject({
      url: "https://c.example.com/h",
      events: ["inbox.deleted"],
      enabled: true,
    });
    expect(second?.secret).toMatch(SECRET);
    expect(second?.secret).not.toBe(b?.secret);
    expect(rest).toEqual([]);
  });

  it("stores secrets only encrypted", async () => {
    const ws = await seedWorkspace();
    const inbox = await createInbox(ws.token, { webhooks: [hook()] });
    const secret = inbox.webhooks[0]?.secret as string;
    const row = await env.DB_2.prepare("SELECT webhooks FROM inboxes WHERE id = ?")
      .bind(inbox.id)
      .first<{ webhooks: string }>();
    expect(row?.webhooks).not.toContain(secret);
    const stored = JSON.parse(row?.webhooks ?? "[]") as Webhook[];
    expect(await decryptSecret(env.ENCRYPTION_KEY, stored[0]?.secret ?? "")).toBe(secret);
  });

  it.each([
    ["no events", hook(undefined, { events: [] })],
    ["an unknown event", hook(undefined, { events: ["ticket.exploded"] })],
    ["a repeated event", hook(undefined, { events: ["ticket.created", "ticket.created"] })],
    ["a secret of another form", hook(undefined, { secret: "hunter2" })],
    ["an unknown field", { ...hook(), headers: {} }],
  ])("refuses a webhook with %s", async (_name, webhook) => {
    const ws = await seedWorkspace();
    const res = await callJson<Details>("POST", "/v1/inboxes", {
      token: ws.token,
      body: { name: "X", email_address: address(), webhooks: [webhook] },
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0]?.path).toMatch(/^body\.webhooks\.0/);
  });

  it("refuses more than 10 webhooks", async () => {
    const ws = await seedWorkspace();
    const webhooks = Array.from({ length: 11 }, (_, i) => hook(`https://h${i}.example.com/`));
    const res = await call("POST", "/v1/inboxes", {
      token: ws.token,
      body: { name: "X", email_address: address(), webhooks },
    });
    expect(res.status).toBe(400);
  });

  it.each([
    "http://hooks.example.com/in",
    "https://10.1.2.3/in",
    "https://172.16.5.4/in",
    "https://192.168.1.1/in",
    "https://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/in",
    "https://[fd12:3456::1]/in",
    "https://[::ffff:10.0.0.1]/in",
    "https://0.0.0.0/in",
    "https://user:pass@hooks.example.com/in",
    "ftp://hooks.example.com/in",
    "not a url",
  ])("refuses %s", async (url) => {
    const ws = await seedWorkspace();
    const res = await callJson<Details>("POST", "/v1/inboxes", {
      token: ws.token,
      body: { name: "X", email_address: address(), webhooks: [hook("https://ok.example.com/"), hook(url)] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorBody("Invalid request", "validation_error"));
    expect(res.body.details).toEqual([{ path: "body.webhooks.1.url", message: expect.any(String) }]);
  });

  it("accepts http:// to loopback in test, and refuses loopback in production", async () => {
    const ws = await seedWorkspace();
    for (const url of [
      "http://127.0.0.1:8787/hook",
      "http://localhost:9000/",
      "http://[::1]/h",
      "https://127.0.0.2/",
    ]) {
      expect((await createInbox(ws.token, { webhooks: [hook(url)] })).webhooks[0]?.url).toBe(url);
    }
    for (const url of [
      "http://127.0.0.1:8787/hook",
      "https://localhost/",
      "https://[::1]/",
      "http://hooks.example.com/",
    ]) {
      const res = await inProduction(ws.token, {
        name: "P",
        email_address: address(),
        webhooks: [hook(url)],
      });
      expect(res.status, url).toBe(400);
      expect(res.body.details[0]?.path).toBe("body.webhooks.0.url");
    }
    const ok = await inProduction(ws.token, { name: "P", email_address: address(), webhooks: [hook()] });
    expect(ok.status).toBe(201);
  });

  it("judges the address the URL parser sees, whatever notation it was written in", () => {
    expect(webhookUrlProblem("https://2130706433/", "production")).toMatch(/loopback/);
    expect(webhookUrlProblem("https://0x7f.1/", "production")).toMatch(/loopback/);
    expect(webhookUrlProblem("https://[::ffff:7f00:1]/", "production")).toMatch(/loopback/);
    expect(webhookUrlProblem("https://[::]/", "test")).toMatch(/private/);
    expect(webhookUrlProblem("https://LOCALHOST./", "production")).toMatch(/loopback/);
    expect(webhookUrlProblem("https://172.32.0.1/", "production")).toBeNull();
    expect(webhookUrlProblem("https://[2606:4700::1111]/", "production")).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1/", "development")).toBeNull();
  });
});
