import { describe, expect, it } from "vitest";
import { savedReplyQueries } from "../../src/features/saved-replies/saved-replies.repo";
import { addKey, call, callJson, db, seedInbox, seedUser, seedWorkspace, ticketWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type SavedReply = {
  id: string;
  name: string;
  body: string;
  inbox_id: string | null;
  actions: Record<string, unknown>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
};
type SavedReplyList = { data: SavedReply[]; pagination: { limit: number; offset: number; total: number } };
type ErrorBody = { error: string; code: string; message?: string; request_id: string };

const create = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  callJson<SavedReply & ErrorBody>("POST", "/v1/saved-replies", { token, body, headers });

describe("saved replies: create, read, update, delete", () => {
  it("creates a reply and reads it back, alone and in the list envelope", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const user = await seedUser(ws.accountId);
    const { status, body } = await create(ws.token, {
      name: "Refund sent",
      body: 'Hi {{ customer.first_name | default: "there" }}, your refund is on its way.',
      inbox_id: inbox.id,
      actions: { status: "resolved", add_tags: ["refund"], assignee_id: user.id },
    });
    expect(status).toBe(201);
    expect(body.id).toMatch(/^srp_[0-9A-Z]{26}$/);
    expect(body).toMatchObject({
      name: "Refund sent",
      inbox_id: inbox.id,
      actions: { status: "resolved", add_tags: ["refund"], assignee_id: user.id },
      created_by: null,
    });
    const got = await callJson<SavedReply>("GET", `/v1/saved-replies/${body.id}`, { token: ws.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(body);
    const list = await callJson<SavedReplyList>("GET", "/v1/saved-replies", { token: ws.token });
    expect(list.body).toEqual({ data: [body], pagination: { limit: 50, offset: 0, total: 1 } });
  });

  it("lists newest first, pages, and keeps an inbox's own and the unscoped replies for inbox_id", async () => {
    const ws = await seedWorkspace();
    const [a, b] = [await seedInbox(ws.accountId), await seedInbox(ws.accountId)];
    const everywhere = (await create(ws.token, { name: "Any", body: "Hello" })).body;
    const ofA = (await create(ws.token, { name: "A", body: "Hello", inbox_id: a.id })).body;
    const ofB = (await create(ws.token, { name: "B", body: "Hello", inbox_id: b.id })).body;
    const all = await callJson<SavedReplyList>("GET", "/v1/saved-replies?limit=2", { token: ws.token });
    expect(all.body.data.map((r) => r.id)).toEqual([ofB.id, ofA.id]);
    expect(all.body.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
    const forA = await callJson<SavedReplyList>("GET", `/v1/saved-replies?inbox_id=${a.id}`, {
      token: ws.token,
    });
    expect(forA.body.data.map((r) => r.id)).toEqual([ofA.id, everywhere.id]);
    expect(forA.body.pagination.total).toBe(2);
  });

  it("updates the fields given, replaces actions whole, and deletes", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const reply = (
      await create(ws.token, { name: "Old", body: "Hi", inbox_id: inbox.id, actions: { status: "pending" } })
    ).body;
    const patched = await callJson<SavedReply>("PATCH", `/v1/saved-replies/${reply.id}`, {
      token: ws.token,
      body: { name: "New", inbox_id: null, actions: { add_tags: ["x"] } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: "New",
      body: "Hi",
      inbox_id: null,
      actions: { add_tags: ["x"] },
    });
    const deleted = await callJson("DELETE", `/v1/saved-replies/${reply.id}`, { token: ws.token });
    expect(deleted).toMatchObject({ status: 200, body: { id: reply.id, deleted: true } });
    expect((await call("GET", `/v1/saved-replies/${reply.id}`, { token: ws.token })).status).toBe(404);
    expect((await call("DELETE", `/v1/saved-replies/${reply.id}`, { token: ws.token })).status).toBe(404);
  });

  it("answers a retried create with the first reply (Idempotency-Key)", async () => {
    const ws = await seedWorkspace();
    const headers = { "Idempotency-Key": "srp-retry-1" };
    const first = await create(ws.token, { name: "Once", body: "Hi" }, headers);
    const again = await create(ws.token, { name: "Once", body: "Hi" }, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const list = await callJson<SavedReplyList>("GET", "/v1/saved-replies", { token: ws.token });
    expect(list.body.pagination.total).toBe(1);
    expect((await create(ws.token, { name: "Other", body: "Hi" }, headers)).status).toBe(409);
  });

  it("refuses bad fields with 400 and another workspace's inbox with 404", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const theirs = await seedInbox(other.accountId);
    expect((await create(ws.token, { name: "", body: "Hi" })).status).toBe(400);
    expect((await create(ws.token, { name: "x", body: "" })).status).toBe(400);
    expect((await create(ws.token, { name: "x", body: "Hi", actions: { status: "gone" } })).status).toBe(400);
    expect(
      (await create(ws.token, { name: "x", body: "Hi", actions: { assignee_id: "usr_nobody" } })).status,
    ).toBe(400);
    expect((await create(ws.token, { name: "x", body: "Hi", inbox_id: theirs.id })).status).toBe(404);
  });
});

describe("saved replies: the template is checked when saved (422 naming what is refused)", () => {
  it.each([
    ["{{ customer.age }}", "unknown_variable", "customer.age"],
    ["Hi {{ ticket.secret | default: 'x' }}", "unknown_variable", "ticket.secret"],
    ["{{ customer.first_name | default: customer.password }}", "unknown_variable", "customer.password"],
    ["{{ env.ENCRYPTION_KEY }}", "unknown_variable", "env.ENCRYPTION_KEY"],
    ["{% if customer.name %}Hi{% endif %}", "template_tag_not_allowed", "{% if customer.name %}"],
    ["{% raw %}{{ x }}{% endraw %}", "template_tag_not_allowed", "{% raw %}"],
    ["{% assign x = 1 %}", "template_tag_not_allowed", "{% assign x = 1 %}"],
    ["{{ customer.name | append: 'x' }}", "unknown_filter", "append"],
    ["{{ customer.name | nosuchfilter }}", "unknown_filter", "nosuchfilter"],
    ["Hi {{ customer.name", "invalid_template", "not closed"],
  ])("%s is 422 %s", async (template, code, named) => {
    const ws = await seedWorkspace();
    const { status, body } = await create(ws.token, { name: "x", body: template });
    expect(status).toBe(422);
    expect(body.code).toBe(code);
    expect(body.message).toContain(named);
    expect(body.request_id).toBeTruthy();
    const reply = (await create(ws.token, { name: "ok", body: "Hello" })).body;
    const patch = await callJson<ErrorBody>("PATCH", `/v1/saved-replies/${reply.id}`, {
      token: ws.token,
      body: { body: template },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.code).toBe(code);
  });

  it("accepts every variable and the allowed filters", async () => {
    const ws = await seedWorkspace();
    const body = [
      '{{ customer.first_name | default: "there" | capitalize }}',
      "{{ customer.name | upcase }} {{ customer.email | downcase }}",
      "{{ ticket.client_id }} {{ ticket.subject }} {{ user.name }} {{ inbox.name }}",
      "{{- customer.name | default: customer.email -}}",
    ].join("\n");
    expect((await create(ws.token, { name: "all", body })).status).toBe(201);
  });
});

describe("saved replies: tenancy and permissions", () => {
  it("answers 404 for another workspace's saved reply on every path", async () => {
    const ws = await seedWorkspace();
    const other = await ticketWorkspace("srp-tenant");
    const theirs = (await create(other.ws.token, { name: "Theirs", body: "Hi" })).body;
    const mine = await ticketWorkspace("srp-mine");
    for (const [method, path, body] of [
      ["GET", `/v1/saved-replies/${theirs.id}`, undefined],
      ["PATCH", `/v1/saved-replies/${theirs.id}`, { name: "Mine now" }],
      ["DELETE", `/v1/saved-replies/${theirs.id}`, undefined],
      ["POST", `/v1/saved-replies/${theirs.id}/preview`, { ticket_id: mine.ticket.id }],
      ["POST", `/v1/tickets/${mine.ticket.id}/messages`, { type: "note", saved_reply_id: theirs.id }],
    ] as const) {
      const res = await callJson<ErrorBody>(method, path, { token: mine.ws.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect(
      (await callJson<SavedReplyList>("GET", "/v1/saved-replies", { token: ws.token })).body.data,
    ).toEqual([]);
    const still = await callJson<SavedReply>("GET", `/v1/saved-replies/${theirs.id}`, {
      token: other.ws.token,
    });
    expect(still.body.name).toBe("Theirs");
  });

  it("lets a read key list, get and preview, and refuses it every change with 403", async () => {
    const { ws, ticket } = await ticketWorkspace("srp-perm");
    const reply = (await create(ws.token, { name: "R", body: "Hello" })).body;
    const read = await addKey(ws.accountId, "read");
    const write = await addKey(ws.accountId, "write");
    expect((await call("GET", "/v1/saved-replies", { token: read.token })).status).toBe(200);
    expect((await call("GET", `/v1/saved-replies/${reply.id}`, { token: read.token })).status).toBe(200);
    const preview = { ticket_id: ticket.id };
    expect(
      (await call("POST", `/v1/saved-replies/${reply.id}/preview`, { token: read.token, body: preview }))
        .status,
    ).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/v1/saved-replies", { name: "x", body: "y" }],
      ["PATCH", `/v1/saved-replies/${reply.id}`, { name: "x" }],
      ["DELETE", `/v1/saved-replies/${reply.id}`, undefined],
    ] as const) {
      expect((await call(method, path, { token: read.token, body })).status, `${method} ${path}`).toBe(403);
    }
    expect((await create(write.token, { name: "By write", body: "Hi" })).status).toBe(201);
    expect((await call("GET", "/v1/saved-replies")).status).toBe(401);
  });
});

describe("saved reply queries are served by indexes", () => {
  it.each([undefined, "inb_X"])(
    "GET /v1/saved-replies (inbox_id %s): the page and its total",
    async (inboxId) => {
      const { page, total } = savedReplyQueries(db(), "acc_X", inboxId, 50, 0);
      expectIndexed(await planOf(page), "saved_replies");
      expectIndexed(await planOf(total), "saved_replies");
    },
  );
});
