import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { removeUser, updateUser } from "../../src/features/users/users.service";
import { addKey, call, callJson, db, errorBody, seedInbox, seedUser, seedWorkspace } from "./helpers";

type User = Record<string, unknown> & { id: string };

const addMember = (token: string, body: unknown) => callJson<User>("POST", "/v1/members", { token, body });

describe("users", () => {
  it("lists every user as { data, count }, gets one, and keeps them to their workspace", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const owner = await seedUser(ws.accountId, { role: "owner" });
    const stranger = await seedUser(other.accountId);
    const read = await addKey(ws.accountId, "read");

    const list = await callJson<{ data: User[]; count: number }>("GET", "/v1/users", { token: read.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [
        {
          id: owner.id,
          email: owner.email,
          name: "Test Person",
          role: "owner",
          status: "active",
          available: true,
          capacity: null,
          last_login_at: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ],
      count: 1,
    });
    expect((await callJson("GET", `/v1/users/${owner.id}`, { token: read.token })).body).toMatchObject({
      id: owner.id,
    });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await callJson(method, `/v1/users/${stranger.id}`, { token: ws.token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ ...errorBody("Not found", "not_found"), message: expect.any(String) });
    }
  });

  it("lets only admin keys write", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId);
    const write = await addKey(ws.accountId, "write");
    expect(
      (await call("PATCH", `/v1/users/${user.id}`, { token: write.token, body: { name: "x" } })).status,
    ).toBe(403);
    expect((await call("DELETE", `/v1/users/${user.id}`, { token: write.token })).status).toBe(403);
    expect(
      (await call("POST", "/v1/members", { token: write.token, body: { email: "a@b.test", role: "agent" } }))
        .status,
    ).toBe(403);
  });

  it("updates name, role and status, and refuses an empty or unknown change", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId);
    const updated = await callJson<User>("PATCH", `/v1/users/${user.id}`, {
      token: ws.token,
      body: { name: "Grace", role: "admin", status: "disabled" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Grace", role: "admin", status: "disabled" });
    expect((await call("PATCH", `/v1/users/${user.id}`, { token: ws.token, body: {} })).status).toBe(400);
    expect(
      (await call("PATCH", `/v1/users/${user.id}`, { token: ws.token, body: { role: "boss" } })).status,
    ).toBe(400);
  });

  it("lets no API key grant or remove the owner role, or disable, enable or remove an owner (403)", async () => {
    const ws = await seedWorkspace();
    const owner = await seedUser(ws.accountId, { role: "owner" });
    const formerOwner = await seedUser(ws.accountId, { role: "owner", status: "disabled" });
    const admin = await seedUser(ws.accountId, { role: "admin" });
    const ownerRequired = { ...errorBody("Forbidden", "owner_required"), message: expect.any(String) };
    const attempts: Array<[string, string, unknown]> = [
      ["PATCH", `/v1/users/${admin.id}`, { role: "owner" }],
      ["PATCH", `/v1/users/${owner.id}`, { role: "admin" }],
      ["PATCH", `/v1/users/${owner.id}`, { status: "disabled" }],
      ["PATCH", `/v1/users/${formerOwner.id}`, { status: "active" }],
      ["DELETE", `/v1/users/${owner.id}`, undefined],
      ["POST", "/v1/members", { email: "boss@example.com", role: "owner" }],
      ["POST", "/v1/invitations", { email: "boss@example.com", role: "owner" }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await callJson(method, path, { token: ws.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual(ownerRequired);
    }
    const roles = await callJson<{ data: User[] }>("GET", "/v1/users", { token: ws.token });
    expect(roles.body.data.map((u) => [u.id, u.role, u.status])).toEqual([
      [owner.id, "owner", "active"],
      [formerOwner.id, "owner", "disabled"],
      [admin.id, "admin", "active"],
    ]);
    // An owner's name is not ownership: a key may still change it.
    expect(
      (await call("PATCH", `/v1/users/${owner.id}`, { token: ws.token, body: { name: "Ada" } })).status,
    ).toBe(200);
  });

  it("protects the last active owner from removal, disabling and demotion, even by an owner (409)", async () => {
    const ws = await seedWorkspace();
    const owner = await seedUser(ws.accountId, { role: "owner" });
    await seedUser(ws.accountId, { role: "owner", status: "disabled" });
    const ctx = { db: db(), env, accountId: ws.accountId, now: Date.now() };
    for (const body of [{ role: "admin" as const }, { status: "disabled" as const }]) {
      await expect(updateUser(ctx, "owner", owner.id, body)).rejects.toMatchObject({
        status: 409,
        code: "last_owner",
      });
    }
    await expect(removeUser(ctx, "owner", owner.id)).rejects.toMatchObject({
      status: 409,
      code: "last_owner",
    });

    const second = await seedUser(ws.accountId, { role: "owner" });
    // With a second active owner, either may go, but not both at once.
    const both = await Promise.allSettled([
      removeUser(ctx, "owner", owner.id),
      removeUser(ctx, "owner", second.id),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("removes a user, unassigning their tickets in the same write", async () => {
    const ws = await seedWorkspace();
    const agent = await seedUser(ws.accountId);
    const inbox = await seedInbox(ws.accountId);
    const ticket = await callJson<{ id: string; assignee_id: string | null }>("POST", "/v1/tickets", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        subject: "Help",
        customer: { email: "c@example.com" },
        assignee_id: agent.id,
      },
    });
    expect(ticket.status).toBe(201);
    expect(ticket.body.assignee_id).toBe(agent.id);

    const removed = await callJson("DELETE", `/v1/users/${agent.id}`, { token: ws.token });
    expect(removed).toMatchObject({ status: 200, body: { id: agent.id, deleted: true } });
    const after = await callJson<{ assignee_id: string | null }>("GET", `/v1/tickets/${ticket.body.id}`, {
      token: ws.token,
    });
    expect(after.body.assignee_id).toBeNull();
    expect((await call("GET", `/v1/users/${agent.id}`, { token: ws.token })).status).toBe(404);
  });
});

describe("ticket assignees", () => {
  it("must be an active user of the workspace (400 with details) on create, PATCH and assign", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const active = await seedUser(ws.accountId);
    const disabled = await seedUser(ws.accountId, { status: "disabled" });
    const stranger = await seedUser(other.accountId);
    const base = { inbox_id: inbox.id, subject: "Help", customer: { email: "c@example.com" } };

    for (const [id, message] of [
      [disabled.id, "names a disabled user"],
      [stranger.id, "names no user of this workspace"],
      ["usr_nobody", "names no user of this workspace"],
    ] as const) {
      const created = await callJson("POST", "/v1/tickets", {
        token: ws.token,
        body: { ...base, assignee_id: id },
      });
      expect(created.status).toBe(400);
      expect(created.body).toMatchObject({
        code: "validation_error",
        details: [{ path: "body.assignee_id", message }],
      });
    }
    const ticket = await callJson<{ id: string }>("POST", "/v1/tickets", { token: ws.token, body: base });
    const patched = await callJson("PATCH", `/v1/tickets/${ticket.body.id}`, {
      token: ws.token,
      body: { assignee_id: stranger.id },
    });
    expect(patched.status).toBe(400);
    expect(patched.body).toMatchObject({ details: [{ path: "body.assignee_id" }] });
    const assigned = await callJson("POST", `/v1/tickets/${ticket.body.id}/manage`, {
      token: ws.token,
      body: { action: "assign", user_id: disabled.id },
    });
    expect(assigned.status).toBe(400);
    expect(assigned.body).toMatchObject({
      details: [{ path: "body.user_id", message: "names a disabled user" }],
    });

    const ok = await callJson("PATCH", `/v1/tickets/${ticket.body.id}`, {
      token: ws.token,
      body: { assignee_id: active.id },
    });
    expect(ok).toMatchObject({ status: 200, body: { assignee_id: active.id } });
    const cleared = await callJson("PATCH", `/v1/tickets/${ticket.body.id}`, {
      token: ws.token,
      body: { assignee_id: null },
    });
    expect(cleared).toMatchObject({ status: 200, body: { assignee_id: null } });
  });
});

describe("members", () => {
  it("adds a user at once (201) and lists users then pending invitations", async () => {
    const ws = await seedWorkspace();
    const added = await addMember(ws.token, { email: "  Ada@Example.COM ", name: "Ada", role: "admin" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
      status: "active",
    });
    const invited = await callJson<User>("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "grace@example.com", role: "agent" },
    });
    expect(invited.status).toBe(201);

    const list = await callJson<{ data: User[]; count: number }>("GET", "/v1/members", { token: ws.token });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.data).toEqual([
      expect.objectContaining({ type: "user", id: added.body.id, email: "ada@example.com" }),
      expect.objectContaining({ type: "invitation", id: invited.body.id, status: "pending" }),
    ]);
  });

  it("answers 409 for a member or a pending invitation, in any letter case", async () => {
    const ws = await seedWorkspace();
    await addMember(ws.token, { email: "ada@example.com", role: "agent" });
    await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "grace@example.com", role: "agent" },
    });

    const member = await addMember(ws.token, { email: "ADA@example.com", role: "agent" });
    expect(member.status).toBe(409);
    expect(member.body).toEqual({
      ...errorBody("Already a member", "already_member"),
      message: expect.any(String),
    });
    const pending = await addMember(ws.token, { email: "Grace@Example.com", role: "agent" });
    expect(pending.status).toBe(409);
    expect(pending.body).toEqual({
      ...errorBody("Invitation pending", "invitation_pending"),
      message: expect.any(String),
    });
    expect((await addMember(ws.token, { email: "not-an-email", role: "agent" })).status).toBe(400);
  });

  it("answers exactly {error} with 429 at the team-member limit, counting users and pending invitations", async () => {
    const ws = await seedWorkspace({ plan: "starter", overrides: { team_members: 2 } });
    expect((await addMember(ws.token, { email: "one@example.com", role: "agent" })).status).toBe(201);
    const invited = await call("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "two@example.com", role: "agent" },
    });
    expect(invited.status).toBe(201);

    for (const [path, body] of [
      ["/v1/members", { email: "three@example.com", role: "agent" }],
      ["/v1/invitations", { email: "three@example.com", role: "agent" }],
    ] as const) {
      const res = await call("POST", path, { token: ws.token, body });
      expect(res.status).toBe(429);
      expect(await res.text()).toBe('{"error":"Team member limit reached"}');
    }
    const usage = await callJson<{ quotas: { team_members: unknown } }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      {
        token: ws.token,
      },
    );
    expect(usage.body.quotas.team_members).toMatchObject({ current: 2, limit: 2, percentage: 100 });
  });

  it("starter without override allows 5; free is unlimited", async () => {
    const starter = await seedWorkspace({ plan: "starter" });
    for (let i = 0; i < 5; i++) {
      expect((await addMember(starter.token, { email: `p${i}@example.com`, role: "agent" })).status).toBe(
        201,
      );
    }
    expect(
      (
        await call("POST", "/v1/members", {
          token: starter.token,
          body: { email: "p5@example.com", role: "agent" },
        })
      ).status,
    ).toBe(429);
    const free = await seedWorkspace({ plan: "free" });
    for (let i = 0; i < 7; i++) {
      expect((await addMember(free.token, { email: `p${i}@example.com`, role: "agent" })).status).toBe(201);
    }
  });

  it("admits one of two concurrent additions at the limit", async () => {
    const ws = await seedWorkspace({ plan: "starter", overrides: { team_members: 1 } });
    const answers = await Promise.all([
      call("POST", "/v1/members", { token: ws.token, body: { email: "a@example.com", role: "agent" } }),
      call("POST", "/v1/members", { token: ws.token, body: { email: "b@example.com", role: "agent" } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 429]);
    const count = await env.DB_2.prepare("SELECT count(*) AS n FROM users WHERE account_id = ?")
      .bind(ws.accountId)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});
