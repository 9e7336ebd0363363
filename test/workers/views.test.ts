import { describe, expect, it } from "vitest";
import { MAX_VIEWS } from "../../src/features/views/views.schemas";
import { callJson, errorBody, seedInbox, seedUser, seedWorkspace, shardD1Of } from "./helpers";

type View = {
  id: string;
  name: string;
  filters: Record<string, string>;
  shared: boolean;
  owner_user_id: string | null;
  builtin: boolean;
  count: number | null;
};
type ViewList = { data: View[]; count: number };

async function desk() {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  const ticket = async (body: Record<string, unknown> = {}) =>
    (
      await callJson<{ id: string }>("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Help", ...body },
      })
    ).body.id;
  const views = async (query = "") =>
    (await callJson<ViewList>("GET", `/v1/views${query}`, { token: ws.token })).body.data;
  const countOf = async (id: string, query = "") => (await views(query)).find((v) => v.id === id)?.count;
  return { ws, inbox, ticket, views, countOf };
}

describe("views: the built-in ones", () => {
  it("every new workspace has Unassigned, Mine and All open, first, with counts", async () => {
    const { views } = await desk();
    const list = await views();
    expect(list.map((v) => [v.id, v.name, v.builtin, v.shared])).toEqual([
      ["vw_unassigned", "Unassigned", true, true],
      ["vw_mine", "Mine", true, true],
      ["vw_all_open", "All open", true, true],
    ]);
    expect(list.map((v) => v.count)).toEqual([0, null, 0]);
  });

  it("cannot be changed or deleted", async () => {
    const { ws } = await desk();
    const patch = await callJson("PATCH", "/v1/views/vw_mine", { token: ws.token, body: { name: "Me" } });
    expect(patch.status).toBe(409);
    expect(patch.body).toMatchObject(errorBody("Built-in view", "builtin_view"));
    expect((await callJson("DELETE", "/v1/views/vw_all_open", { token: ws.token })).status).toBe(409);
  });

  it("Mine is each user's own, resolved at read time", async () => {
    const { ws, ticket, countOf } = await desk();
    const ann = await seedUser(ws.accountId);
    const bob = await seedUser(ws.accountId);
    await ticket({ assignee_id: ann.id });
    await ticket({ assignee_id: ann.id });
    await ticket({ assignee_id: bob.id });
    await ticket({ assignee_id: ann.id, status: "closed" });
    expect(await countOf("vw_mine", `?user_id=${ann.id}`)).toBe(2);
    expect(await countOf("vw_mine", `?user_id=${bob.id}`)).toBe(1);
    expect(await countOf("vw_mine")).toBeNull();
    const page = await callJson<{ data: Array<{ assignee_id: string }> }>(
      "GET",
      `/v1/views/vw_mine/tickets?user_id=${bob.id}`,
      { token: ws.token },
    );
    expect(page.body.data.map((t) => t.assignee_id)).toEqual([bob.id]);
    const noUser = await callJson("GET", "/v1/views/vw_mine/tickets", { token: ws.token });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toMatchObject(errorBody("User required", "user_required"));
    const stranger = await seedUser((await seedWorkspace()).accountId);
    expect((await callJson("GET", `/v1/views?user_id=${stranger.id}`, { token: ws.token })).status).toBe(400);
  });
});

describe("views: counts are live", () => {
  it("follow ticket creates, updates and deletes", async () => {
    const { ws, ticket, countOf } = await desk();
    const ann = await seedUser(ws.accountId);
    const custom = (
      await callJson<View>("POST", "/v1/views", {
        token: ws.token,
        body: { name: "Urgent pending", filters: { status: "pending", priority: "urgent" } },
      })
    ).body;
    const a = await ticket();
    const b = await ticket();
    await ticket({ status: "pending", priority: "urgent" });
    expect(await countOf("vw_unassigned")).toBe(2);
    expect(await countOf("vw_all_open")).toBe(2);
    expect(await countOf(custom.id)).toBe(1);

    await callJson("PATCH", `/v1/tickets/${a}`, { token: ws.token, body: { assignee_id: ann.id } });
    expect(await countOf("vw_unassigned")).toBe(1);
    expect(await countOf("vw_mine", `?user_id=${ann.id}`)).toBe(1);
    await callJson("PATCH", `/v1/tickets/${b}`, {
      token: ws.token,
      body: { status: "pending", priority: "urgent" },
    });
    expect(await countOf("vw_all_open")).toBe(1);
    expect(await countOf(custom.id)).toBe(2);
    await callJson("DELETE", `/v1/tickets/${b}`, { token: ws.token });
    expect(await countOf(custom.id)).toBe(1);
    const got = await callJson<View>("GET", `/v1/views/${custom.id}`, { token: ws.token });
    expect(got.body.count).toBe(1);
  });

  it("a view's tickets are the ticket list's with its filters; assignee_id=none lists the unassigned", async () => {
    const { ws, ticket } = await desk();
    const ann = await seedUser(ws.accountId);
    const free = await ticket();
    await ticket({ assignee_id: ann.id });
    const viaView = await callJson<{ data: Array<{ id: string }>; pagination: { total: number } }>(
      "GET",
      "/v1/views/vw_unassigned/tickets?limit=10",
      { token: ws.token },
    );
    expect(viaView.body.data.map((t) => t.id)).toEqual([free]);
    expect(viaView.body.pagination.total).toBe(1);
    const viaList = await callJson<{ data: Array<{ id: string }> }>(
      "GET",
      "/v1/tickets?status=open&assignee_id=none",
      { token: ws.token },
    );
    expect(viaList.body.data.map((t) => t.id)).toEqual([free]);
  });
});

describe("views: create, read, update, delete", () => {
  it("round-trips a shared view", async () => {
    const { ws, inbox, views } = await desk();
    const created = await callJson<View>("POST", "/v1/views", {
      token: ws.token,
      body: { name: " VIP open ", filters: { status: "open", tag: "vip", inbox_id: inbox.id } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "VIP open",
      filters: { status: "open", tag: "vip", inbox_id: inbox.id },
      shared: true,
      owner_user_id: null,
      builtin: false,
      count: 0,
    });
    expect(created.body.id).toMatch(/^vw_[0-9A-HJKMNP-TV-Z]{26}$/);
    const updated = await callJson<View>("PATCH", `/v1/views/${created.body.id}`, {
      token: ws.token,
      body: { name: "VIP", filters: { priority: "high" } },
    });
    expect(updated.body).toMatchObject({ name: "VIP", filters: { priority: "high" } });
    expect((await views()).map((v) => v.name)).toEqual(["Unassigned", "Mine", "All open", "VIP"]);
    const deleted = await callJson("DELETE", `/v1/views/${created.body.id}`, { token: ws.token });
    expect(deleted.body).toEqual({ id: created.body.id, deleted: true });
    expect((await callJson("GET", `/v1/views/${created.body.id}`, { token: ws.token })).status).toBe(404);
  });

  it("refuses filters the ticket list would refuse", async () => {
    const { ws } = await desk();
    const bad = [
      { status: "nope" },
      { limit: "5" },
      { unknown: "x" },
      { updated_after: "yesterday" },
      { q: "" },
      "status=open",
    ];
    for (const filters of bad) {
      const res = await callJson("POST", "/v1/views", { token: ws.token, body: { name: "x", filters } });
      expect(res.status, JSON.stringify(filters)).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_error" });
    }
    expect(
      (await callJson("POST", "/v1/views", { token: ws.token, body: { name: "", filters: {} } })).status,
    ).toBe(400);
  });

  it("another workspace's view is 404 everywhere", async () => {
    const { ws } = await desk();
    const other = await seedWorkspace();
    const id = (
      await callJson<View>("POST", "/v1/views", { token: ws.token, body: { name: "Ours", filters: {} } })
    ).body.id;
    for (const [method, path, body] of [
      ["GET", `/v1/views/${id}`, undefined],
      ["GET", `/v1/views/${id}/tickets`, undefined],
      ["PATCH", `/v1/views/${id}`, { name: "Theirs" }],
      ["DELETE", `/v1/views/${id}`, undefined],
    ] as const) {
      const res = await callJson(method, path, { token: other.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const theirs = (await callJson<ViewList>("GET", "/v1/views", { token: other.token })).body.data;
    expect(theirs.map((v) => v.id)).not.toContain(id);
  });
});

describe("views: personal and shared", () => {
  it("a personal view is listed only for its owner; its `me` is its owner", async () => {
    const { ws, ticket, views } = await desk();
    const ann = await seedUser(ws.accountId);
    const bob = await seedUser(ws.accountId);
    await ticket({ assignee_id: ann.id, priority: "high" });
    const personal = await callJson<View>("POST", "/v1/views", {
      token: ws.token,
      body: { name: "My high", filters: { assignee_id: "me", priority: "high" }, owner_user_id: ann.id },
    });
    expect(personal.body).toMatchObject({ shared: false, owner_user_id: ann.id, count: 1 });
    expect((await views()).map((v) => v.id)).not.toContain(personal.body.id);
    expect((await views(`?user_id=${bob.id}`)).map((v) => v.id)).not.toContain(personal.body.id);
    const annList = await views(`?user_id=${ann.id}`);
    expect(annList.find((v) => v.id === personal.body.id)?.count).toBe(1);
    // The key reaches it by id, read as its owner whoever asks.
    const got = await callJson<View>("GET", `/v1/views/${personal.body.id}?user_id=${bob.id}`, {
      token: ws.token,
    });
    expect(got.body.count).toBe(1);
    // Shared, every user lists it.
    await callJson("PATCH", `/v1/views/${personal.body.id}`, {
      token: ws.token,
      body: { owner_user_id: null },
    });
    expect((await views(`?user_id=${bob.id}`)).find((v) => v.id === personal.body.id)?.count).toBe(0);
  });

  it("names only an active user of the workspace as owner", async () => {
    const { ws } = await desk();
    const gone = await seedUser(ws.accountId, { status: "disabled" });
    const res = await callJson("POST", "/v1/views", {
      token: ws.token,
      body: { name: "x", filters: {}, owner_user_id: gone.id },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("body.owner_user_id");
  });
});

describe("views: the limit", () => {
  it(`a workspace holds at most ${MAX_VIEWS} views besides the built-in ones`, async () => {
    const { ws } = await desk();
    const now = Date.now();
    await shardD1Of()
      .prepare(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${MAX_VIEWS})
         INSERT INTO ticket_views (id, account_id, name, created_at, updated_at)
         SELECT 'vw_limit' || n || ?1, ?1, 'View ' || n, ?2, ?2 FROM seq`,
      )
      .bind(ws.accountId, now)
      .run();
    const res = await callJson("POST", "/v1/views", {
      token: ws.token,
      body: { name: "One more", filters: {} },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      ...errorBody("View limit reached", "view_limit_reached"),
      limit: MAX_VIEWS,
    });
    const list = await callJson<ViewList>("GET", "/v1/views", { token: ws.token });
    expect(list.body.count).toBe(MAX_VIEWS + 3);
  });
});
