import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { deleteMember, insertMembers, memberPageQuery } from "../../src/features/contact-groups/members.repo";
import { call, callJson, db, seedWorkspace } from "./helpers";

type Member = {
  id: string;
  email: string;
  name: string | null;
  blocked: boolean;
  unsubscribed: boolean;
  added_at: string;
};
type MemberList = { data: Member[]; pagination: { limit: number; offset: number; total: number } };
type Added = { added: number; skipped: number };

async function createGroup(token: string, name: string) {
  const { status, body } = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
    token,
    body: { name },
  });
  expect(status).toBe(201);
  return body.id;
}

async function createCustomer(token: string, body: Record<string, unknown>) {
  const { status, body: customer } = await callJson<{ id: string }>("POST", "/v1/customers", { token, body });
  expect(status).toBe(201);
  return customer.id;
}

async function add(token: string, groupId: string, members: unknown[]) {
  return callJson<Added>("POST", `/v1/contact-groups/${groupId}/members`, { token, body: { members } });
}

async function memberCount(token: string, groupId: string) {
  const { body } = await callJson<{ member_count: number }>("GET", `/v1/contact-groups/${groupId}`, {
    token,
  });
  return body.member_count;
}

/** The number of membership rows, counted, to check the kept `member_count` against. */
async function countedMembers(groupId: string) {
  const row = await env.DB_2.prepare("SELECT count(*) AS n FROM contact_group_members WHERE group_id = ?")
    .bind(groupId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function customerCount(accountId: string) {
  const row = await env.DB_2.prepare("SELECT count(*) AS n FROM customers WHERE account_id = ?")
    .bind(accountId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("adding members", () => {
  it("creates new customers, uses existing ones by email or id, and skips members", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "News");
    const ada = await createCustomer(ws.token, { email: "ada@example.com", name: "Ada", blocked: true });
    const first = await add(ws.token, group, [
      { email: " ADA@Example.com ", name: "Not Ada" },
      { email: "new@example.com", name: "New Person" },
      { email: "NEW@example.com", name: "Second name" },
      { email: "bare@example.com" },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ added: 3, skipped: 1 });
    expect(await customerCount(ws.accountId)).toBe(3);

    const list = await callJson<MemberList>("GET", `/v1/contact-groups/${group}/members`, {
      token: ws.token,
    });
    expect(list.body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    const byEmail = Object.fromEntries(list.body.data.map((m) => [m.email, m]));
    // An existing customer is never changed; a new one gets the first name given.
    expect(byEmail["ada@example.com"]).toMatchObject({ id: ada, name: "Ada", blocked: true });
    // A member is the customer as GET /v1/customers/{id} shows it, plus when it joined.
    const { added_at, ...adaAsMember } = byEmail["ada@example.com"] as Member;
    const adaItself = await callJson("GET", `/v1/customers/${ada}`, { token: ws.token });
    expect(adaAsMember).toEqual(adaItself.body);
    expect(Date.parse(added_at)).toBeGreaterThan(Date.parse(adaItself.body.created_at as string));
    expect(byEmail["new@example.com"]).toMatchObject({ name: "New Person", unsubscribed: false });
    expect(byEmail["new@example.com"]?.id).toMatch(/^cus_/);
    expect(byEmail["bare@example.com"]?.name).toBe(null);
    expect(list.body.data[0]?.added_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const created = await callJson<{ email: string }>(
      "GET",
      `/v1/customers/${byEmail["new@example.com"]?.id}`,
      {
        token: ws.token,
      },
    );
    expect(created.body.email).toBe("new@example.com");

    const again = await add(ws.token, group, [
      { customer_id: ada },
      { email: "ada@example.com" },
      { email: "late@example.com" },
    ]);
    expect(again.body).toEqual({ added: 1, skipped: 2 });
    expect(await memberCount(ws.token, group)).toBe(4);
    expect(await countedMembers(group)).toBe(4);
  });

  it("lists the most recently added first and pages with the group's total", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "Paged");
    for (const batch of [0, 1, 2]) {
      await add(
        ws.token,
        group,
        Array.from({ length: 20 }, (_, i) => ({ email: `m${batch}-${i}@example.com` })),
      );
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const page = await callJson<MemberList>("GET", `/v1/contact-groups/${group}/members?limit=25&offset=10`, {
      token: ws.token,
    });
    expect(page.body.pagination).toEqual({ limit: 25, offset: 10, total: 60 });
    expect(page.body.data).toHaveLength(25);
    const batches = page.body.data.map((m) => m.email.slice(1, 2));
    expect(batches).toEqual([...Array(10).fill("2"), ...Array(15).fill("1")]);
    const all = await callJson<MemberList>("GET", `/v1/contact-groups/${group}/members?limit=100`, {
      token: ws.token,
    });
    expect(new Set(all.body.data.map((m) => m.id)).size).toBe(60);
    for (const query of ["limit=101", "limit=0", "offset=-1"]) {
      const res = await call("GET", `/v1/contact-groups/${group}/members?${query}`, { token: ws.token });
      expect(res.status, query).toBe(400);
    }
  });

  it("adds 1,000 members in one call and refuses 1,001", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "Thousand");
    const members = Array.from({ length: 1000 }, (_, i) => ({
      email: `bulk${i}@example.com`,
      name: `Bulk ${i}`,
    }));
    const res = await add(ws.token, group, members);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ added: 1000, skipped: 0 });
    expect(await memberCount(ws.token, group)).toBe(1000);
    expect(await customerCount(ws.accountId)).toBe(1000);

    const mixed = await add(ws.token, group, [...members.slice(0, 999), { email: "one-more@example.com" }]);
    expect(mixed.body).toEqual({ added: 1, skipped: 999 });

    const tooMany = await callJson<{ details: Array<{ path: string }> }>(
      "POST",
      `/v1/contact-groups/${group}/members`,
      { token: ws.token, body: { members: [...members, { email: "x@example.com" }] } },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0]?.path).toBe("body.members");
    expect(await memberCount(ws.token, group)).toBe(1001);
  });

  it.each([
    ["no members", { members: [] }],
    ["a bad email", { members: [{ email: "not an email" }] }],
    ["both email and customer_id", { members: [{ email: "a@example.com", customer_id: "cus_X" }] }],
    ["an unknown field", { members: [{ email: "a@example.com", vip: true }] }],
    ["a two-line name", { members: [{ email: "a@example.com", name: "a\nb" }] }],
    ["no members field", {}],
  ])("refuses %s with 400 and adds nothing", async (_name, body) => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "Strict");
    const res = await callJson<{ code: string; details: unknown[] }>(
      "POST",
      `/v1/contact-groups/${group}/members`,
      {
        token: ws.token,
        body,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.details.length).toBeGreaterThan(0);
    expect(await countedMembers(group)).toBe(0);
  });

  it("refuses another workspace's or an unknown customer_id with 404 and adds nothing", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const group = await createGroup(a.token, "Mine");
    const theirs = await createCustomer(b.token, { email: "theirs@example.com" });
    for (const id of [theirs, "cus_unknown"]) {
      const res = await callJson<{ code: string; message: string }>(
        "POST",
        `/v1/contact-groups/${group}/members`,
        {
          token: a.token,
          body: { members: [{ email: "fresh@example.com" }, { customer_id: id }] },
        },
      );
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
      expect(res.body.message).toContain(id);
    }
    expect(await countedMembers(group)).toBe(0);
    expect(await customerCount(a.accountId)).toBe(0);
  });

  it("keeps member_count exact under parallel adds of overlapping members", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "Parallel");
    const emails = Array.from({ length: 120 }, (_, i) => `p${i}@example.com`);
    // Eight requests, each a window of 60 addresses overlapping its neighbours; together all 120.
    const windows = Array.from({ length: 8 }, (_, w) =>
      emails.slice(w * 8, w * 8 + 60).map((email) => ({ email })),
    );
    windows.push(emails.slice(60).map((email) => ({ email })));
    const results = await Promise.all(windows.map((members) => add(ws.token, group, members)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const added = results.reduce((sum, r) => sum + r.body.added, 0);
    const entries = windows.reduce((sum, w) => sum + w.length, 0);
    expect(added).toBe(120);
    expect(results.reduce((sum, r) => sum + r.body.skipped, 0)).toBe(entries - 120);
    expect(await memberCount(ws.token, group)).toBe(120);
    expect(await countedMembers(group)).toBe(120);
    expect(await customerCount(ws.accountId)).toBe(120);
  });
});

describe("removing members", () => {
  it("removes one member, 404s a non-member, and keeps the customer", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "Removals");
    const stay = await createCustomer(ws.token, { email: "stay@example.com" });
    const leave = await createCustomer(ws.token, { email: "leave@example.com" });
    await add(ws.token, group, [{ customer_id: stay }, { customer_id: leave }]);
    const res = await callJson("DELETE", `/v1/contact-groups/${group}/members/${leave}`, { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ contact_group_id: group, customer_id: leave, deleted: true });
    expect(await memberCount(ws.token, group)).toBe(1);
    const again = await call("DELETE", `/v1/contact-groups/${group}/members/${leave}`, { token: ws.token });
    expect(again.status).toBe(404);
    expect(await memberCount(ws.token, group)).toBe(1);
    expect((await call("GET", `/v1/customers/${leave}`, { token: ws.token })).status).toBe(200);
  });

  it("deleting a customer removes their memberships and corrects every group's count", async () => {
    const ws = await seedWorkspace();
    const one = await createGroup(ws.token, "One");
    const two = await createGroup(ws.token, "Two");
    const gone = await createCustomer(ws.token, { email: "gone@example.com" });
    const kept = await createCustomer(ws.token, { email: "kept@example.com" });
    for (const group of [one, two])
      await add(ws.token, group, [{ customer_id: gone }, { customer_id: kept }]);
    expect((await call("DELETE", `/v1/customers/${gone}`, { token: ws.token })).status).toBe(200);
    for (const group of [one, two]) {
      expect(await memberCount(ws.token, group)).toBe(1);
      expect(await countedMembers(group)).toBe(1);
    }
  });

  it("deleting a group removes its memberships but not the customers", async () => {
    const ws = await seedWorkspace();
    const group = await createGroup(ws.token, "Temporary");
    await add(ws.token, group, [{ email: "a@example.com" }, { email: "b@example.com" }]);
    expect((await call("DELETE", `/v1/contact-groups/${group}`, { token: ws.token })).status).toBe(200);
    expect(await countedMembers(group)).toBe(0);
    expect(await customerCount(ws.accountId)).toBe(2);
  });
});

describe("the members repo carries the account id", () => {
  it("a stranger's account id with the owner's ids reaches nothing", async () => {
    const owner = await seedWorkspace();
    const stranger = await seedWorkspace();
    const group = await createGroup(owner.token, "Owned");
    const customer = await createCustomer(owner.token, { email: "owned@example.com" });
    const byId = { column: "id", values: [customer] } as const;

    const [asStranger] = await runBatch(db(), [insertMembers(stranger.accountId, group, byId, Date.now())]);
    expect(asStranger?.results).toEqual([]);
    expect(await countedMembers(group)).toBe(0);

    await add(owner.token, group, [{ customer_id: customer }]);
    expect(await memberPageQuery(db(), stranger.accountId, group, 50, 0)).toEqual([]);
    expect(await deleteMember(db(), stranger.accountId, group, customer)).toBe(false);
    expect(await memberPageQuery(db(), owner.accountId, group, 50, 0)).toHaveLength(1);
    expect(await deleteMember(db(), owner.accountId, group, customer)).toBe(true);
  });
});
