import { describe, expect, it } from "vitest";
import { addKey, call, callJson, errorBody, seedWorkspace } from "./helpers";

type Group = {
  id: string;
  name: string;
  description: string | null;
  member_count: number;
  created_at: string;
  updated_at: string;
};
type GroupList = { data: Group[]; pagination: { limit: number; offset: number; total: number } };

async function createGroup(token: string, body: Record<string, unknown>) {
  const { status, body: group } = await callJson<Group>("POST", "/v1/contact-groups", { token, body });
  expect(status).toBe(201);
  return group;
}

describe("contact groups API", () => {
  it("creates a group with defaults and gets it", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, { name: " Newsletter ", description: "Monthly news" });
    expect(group).toEqual({
      id: expect.stringMatching(/^grp_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "Newsletter",
      description: "Monthly news",
      member_count: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: group.created_at,
    });
    expect((await createGroup(ws.token, { name: "Bare" })).description).toBe(null);
    const got = await callJson<Group>("GET", `/v1/contact-groups/${group.id}`, { token: ws.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(group);
  });

  it("refuses a duplicate name in any case with 409, per workspace", async () => {
    const ws = await seedWorkspace();
    await createGroup(ws.token, { name: "VIPs" });
    const dup = await callJson("POST", "/v1/contact-groups", { token: ws.token, body: { name: " vips" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      ...errorBody("Contact group already exists", "contact_group_exists"),
      message: expect.any(String),
    });
    const racing = await Promise.all(
      [1, 2, 3].map(() => call("POST", "/v1/contact-groups", { token: ws.token, body: { name: "Race" } })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const other = await seedWorkspace();
    await createGroup(other.token, { name: "VIPs" });
  });

  it.each([
    ["no name", {}],
    ["an empty name", { name: "  " }],
    ["a name over 100 characters", { name: "x".repeat(101) }],
    ["a two-line name", { name: "a\nb" }],
    ["a description over 1000 characters", { name: "d", description: "x".repeat(1001) }],
    ["an unknown field", { name: "u", color: "red" }],
  ])("refuses %s with 400 and details", async (_name, body) => {
    const ws = await seedWorkspace();
    const res = await callJson<{ details: unknown[] }>("POST", "/v1/contact-groups", {
      token: ws.token,
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "Invalid request", code: "validation_error" });
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it("renames, clears the description, allows a case change of its own name, refuses another's name", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, { name: "Beta", description: "testers" });
    await createGroup(ws.token, { name: "Taken" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const patched = await callJson<Group>("PATCH", `/v1/contact-groups/${group.id}`, {
      token: ws.token,
      body: { name: "BETA", description: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "BETA", description: null, created_at: group.created_at });
    expect(patched.body.updated_at > group.updated_at).toBe(true);
    const dup = await callJson("PATCH", `/v1/contact-groups/${group.id}`, {
      token: ws.token,
      body: { name: "taken" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: "contact_group_exists" });
    for (const body of [{}, { name: "" }, { member_count: 3 }]) {
      expect((await call("PATCH", `/v1/contact-groups/${group.id}`, { token: ws.token, body })).status).toBe(
        400,
      );
    }
  });

  it("deletes a group, then 404s it", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, { name: "Gone" });
    const res = await callJson("DELETE", `/v1/contact-groups/${group.id}`, { token: ws.token });
    expect(res.body).toEqual({ id: group.id, deleted: true });
    expect((await call("GET", `/v1/contact-groups/${group.id}`, { token: ws.token })).status).toBe(404);
    expect((await call("DELETE", `/v1/contact-groups/${group.id}`, { token: ws.token })).status).toBe(404);
    // Its name is free again.
    await createGroup(ws.token, { name: "gone" });
  });

  it("pages newest first with limit 50 by default and the workspace's total", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    await createGroup(other.token, { name: "Theirs" });
    for (let i = 0; i < 53; i++) await createGroup(ws.token, { name: `g${i}` });
    const first = await callJson<GroupList>("GET", "/v1/contact-groups", { token: ws.token });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ limit: 50, offset: 0, total: 53 });
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0]?.name).toBe("g52");
    const rest = await callJson<GroupList>("GET", "/v1/contact-groups?limit=5&offset=50", {
      token: ws.token,
    });
    expect(rest.body.pagination).toEqual({ limit: 5, offset: 50, total: 53 });
    expect(rest.body.data.map((g) => g.name)).toEqual(["g2", "g1", "g0"]);
    for (const query of ["limit=101", "limit=0", "offset=-1"]) {
      expect((await call("GET", `/v1/contact-groups?${query}`, { token: ws.token })).status, query).toBe(400);
    }
  });

  it("answers 404 for another workspace's group on every route", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const theirs = await createGroup(b.token, { name: "Theirs" });
    const customer = await callJson<{ id: string }>("POST", "/v1/customers", {
      token: b.token,
      body: { email: "member@example.com" },
    });
    await call("POST", `/v1/contact-groups/${theirs.id}/members`, {
      token: b.token,
      body: { members: [{ customer_id: customer.body.id }] },
    });
    for (const [method, path, body] of [
      ["GET", "", undefined],
      ["PATCH", "", { name: "Mine now" }],
      ["DELETE", "", undefined],
      ["GET", "/members", undefined],
      ["POST", "/members", { members: [{ email: "x@example.com" }] }],
      ["DELETE", `/members/${customer.body.id}`, undefined],
    ] as const) {
      const res = await callJson(method, `/v1/contact-groups/${theirs.id}${path}`, { token: a.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ error: "Not found", code: "not_found" });
    }
    const still = await callJson<Group>("GET", `/v1/contact-groups/${theirs.id}`, { token: b.token });
    expect(still.body).toMatchObject({ name: "Theirs", member_count: 1 });
    const list = await callJson<GroupList>("GET", "/v1/contact-groups", { token: a.token });
    expect(list.body.pagination.total).toBe(0);
  });

  it("lets read keys read and refuses them every write with 403", async () => {
    const ws = await seedWorkspace();
    const read = await addKey(ws.accountId, "read");
    const write = await addKey(ws.accountId, "write");
    const group = await createGroup(write.token, { name: "Writers" });
    for (const path of [
      "/v1/contact-groups",
      `/v1/contact-groups/${group.id}`,
      `/v1/contact-groups/${group.id}/members`,
    ]) {
      expect((await call("GET", path, { token: read.token })).status, path).toBe(200);
    }
    for (const [method, path, body] of [
      ["POST", "/v1/contact-groups", { name: "R" }],
      ["PATCH", `/v1/contact-groups/${group.id}`, { name: "R" }],
      ["DELETE", `/v1/contact-groups/${group.id}`, undefined],
      ["POST", `/v1/contact-groups/${group.id}/members`, { members: [{ email: "r@example.com" }] }],
      ["DELETE", `/v1/contact-groups/${group.id}/members/cus_X`, undefined],
    ] as const) {
      expect((await call(method, path, { token: read.token, body })).status, `${method} ${path}`).toBe(403);
    }
  });
});
