import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { addKey, call, callJson, errorBody, eventually, seedUser, seedWorkspace } from "./helpers";
import { acceptInvitationPage, linkTokenIn, sentSystemEmail, uniqueIp } from "./people-helpers";

type Invitation = {
  id: string;
  email: string;
  role: string;
  status: string;
  expires_at: string;
  invited_by: string;
};

const invite = (token: string, email: string, role = "agent") =>
  callJson<Invitation>("POST", "/v1/invitations", { token, body: { email, role } });

describe("invitations", () => {
  it("creates a pending invitation (201) valid 7 days and emails a link from SYSTEM_FROM", async () => {
    const ws = await seedWorkspace();
    const before = Date.now();
    const res = await invite(ws.token, "Grace@Example.com", "admin");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^inv_/),
      email: "grace@example.com",
      role: "admin",
      status: "pending",
      expires_at: expect.any(String),
      invited_by: ws.keyId,
      created_at: expect.any(String),
    });
    const ttl = Date.parse(res.body.expires_at) - before;
    expect(ttl).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(ttl).toBeLessThan(7 * 86_400_000 + 60_000);

    const { summary, raw } = await sentSystemEmail(ws, "grace@example.com");
    expect(summary).toMatchObject({ from: env.SYSTEM_FROM, to: ["grace@example.com"], status: "sent" });
    expect(raw).toContain("Auto-Submitted: auto-generated");
    // No system DKIM key is configured in tests: the service's own mail goes unsigned.
    expect(raw).not.toContain("DKIM-Signature");
    expect(linkTokenIn(raw, "invitations")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("stores only the token's SHA-256, and no API key can read the token", async () => {
    const ws = await seedWorkspace();
    const created = await invite(ws.token, "hidden@example.com");
    const { summary, raw } = await sentSystemEmail(ws, "hidden@example.com");
    const token = linkTokenIn(raw, "invitations");

    const stored = await env.DB_2.prepare("SELECT * FROM invitations WHERE id = ?")
      .bind(created.body.id)
      .first();
    expect(stored?.token_hash).toBe(await sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    for (const permission of ["admin", "read"] as const) {
      const key = permission === "admin" ? ws : await addKey(ws.accountId, permission);
      const one = await call("GET", `/v1/emails/${summary.id}`, { token: key.token });
      expect(one.status).toBe(200);
      const text = await one.text();
      expect(text).not.toContain(token);
      expect(JSON.parse(text)).toMatchObject({ html: null, text: null, headers: {} });
      const list = await call("GET", "/v1/emails", { token: key.token });
      expect(await list.text()).not.toContain(token);
      const content = await callJson("GET", `/v1/emails/${summary.id}/content`, { token: key.token });
      expect(content.status).toBe(404);
      expect(content.body).toEqual({
        ...errorBody("Content redacted", "content_redacted"),
        message: expect.any(String),
      });
      const invitations = await call("GET", "/v1/invitations", { token: key.token });
      expect(await invitations.text()).not.toContain(token);
    }
  });

  it("answers 409 for a member or a pending invitation of the same email, in any case", async () => {
    const ws = await seedWorkspace();
    await seedUser(ws.accountId, { email: "member@example.com" });
    await invite(ws.token, "pending@example.com");
    const member = await invite(ws.token, "MEMBER@example.com");
    expect(member.status).toBe(409);
    expect(member.body).toEqual({
      ...errorBody("Already a member", "already_member"),
      message: expect.any(String),
    });
    const pending = await invite(ws.token, "Pending@EXAMPLE.com");
    expect(pending.status).toBe(409);
    expect(pending.body).toEqual({
      ...errorBody("Invitation pending", "invitation_pending"),
      message: expect.any(String),
    });
    expect((await invite(ws.token, "x@example.com", "root")).status).toBe(400);
    const write = await addKey(ws.accountId, "write");
    expect((await invite(write.token, "y@example.com")).status).toBe(403);
  });

  it("admits one of two concurrent invitations at the limit, the other gets the exact 429", async () => {
    const ws = await seedWorkspace({ plan: "starter", overrides: { team_members: 2 } });
    await seedUser(ws.accountId);
    const answers = await Promise.all([
      call("POST", "/v1/invitations", { token: ws.token, body: { email: "a@example.com", role: "agent" } }),
      call("POST", "/v1/invitations", { token: ws.token, body: { email: "b@example.com", role: "agent" } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(await refused?.text()).toBe('{"error":"Team member limit reached"}');
    // The invitation and its email commit together: the refused one left no email behind.
    const emails = await callJson<{ data: Array<{ to: string[] }> }>("GET", "/v1/emails", {
      token: ws.token,
    });
    expect(emails.body.data).toHaveLength(1);
    // The same email twice at once: one pending invitation, never two.
    const other = await seedWorkspace();
    const twins = await Promise.all([
      invite(other.token, "twin@example.com"),
      invite(other.token, "twin@example.com"),
    ]);
    expect(twins.map((t) => t.status).sort()).toEqual([201, 409]);
  });

  it("lists newest first with a status filter; revoke frees the seat; expired ones stop counting", async () => {
    const ws = await seedWorkspace({ plan: "starter", overrides: { team_members: 2 } });
    const first = await invite(ws.token, "first@example.com");
    const second = await invite(ws.token, "second@example.com");
    expect((await invite(ws.token, "third@example.com")).status).toBe(429);

    const revoked = await callJson<Invitation>("DELETE", `/v1/invitations/${first.body.id}`, {
      token: ws.token,
    });
    expect(revoked).toMatchObject({ status: 200, body: { id: first.body.id, status: "revoked" } });
    const again = await callJson("DELETE", `/v1/invitations/${first.body.id}`, { token: ws.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "invitation_not_pending" });

    // Time passes: the second invitation's expiry is moved into the past.
    await env.DB_2.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, second.body.id)
      .run();
    const third = await invite(ws.token, "third@example.com");
    expect(third.status).toBe(201);
    const renewed = await invite(ws.token, "second@example.com");
    expect(renewed.status).toBe(201);

    const all = await callJson<{ data: Invitation[]; pagination: unknown }>("GET", "/v1/invitations", {
      token: ws.token,
    });
    expect(all.body.pagination).toEqual({ limit: 50, offset: 0, total: 4 });
    expect(all.body.data.map((i) => [i.email, i.status])).toEqual([
      ["second@example.com", "pending"],
      ["third@example.com", "pending"],
      ["second@example.com", "expired"],
      ["first@example.com", "revoked"],
    ]);
    for (const [status, total] of [
      ["pending", 2],
      ["expired", 1],
      ["revoked", 1],
      ["accepted", 0],
    ] as const) {
      const page = await callJson<{ pagination: { total: number } }>(
        "GET",
        `/v1/invitations?status=${status}`,
        {
          token: ws.token,
        },
      );
      expect(page.body.pagination.total, status).toBe(total);
    }
    expect((await call("GET", "/v1/invitations?status=nope", { token: ws.token })).status).toBe(400);
    const resendExpired = await callJson("POST", `/v1/invitations/${second.body.id}/resend`, {
      token: ws.token,
    });
    expect(resendExpired.status).toBe(409);
  });

  it("resend sends a new link with a new expiry; the old link stops working", async () => {
    const ws = await seedWorkspace();
    const created = await invite(ws.token, "resend@example.com");
    const firstToken = linkTokenIn((await sentSystemEmail(ws, "resend@example.com")).raw, "invitations");
    // Nearly expired, and past the resend cooldown (invitation-limits.test.ts).
    await env.DB_2.prepare("UPDATE invitations SET expires_at = ?, updated_at = ? WHERE id = ?")
      .bind(Date.now() + 60_000, Date.now() - 61_000, created.body.id)
      .run();
    const resent = await callJson<Invitation>("POST", `/v1/invitations/${created.body.id}/resend`, {
      token: ws.token,
    });
    expect(resent.status).toBe(200);
    expect(Date.parse(resent.body.expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const emails = await eventually(async () => {
      const list = await callJson<{ data: Array<{ id: string; status: string }> }>("GET", "/v1/emails", {
        token: ws.token,
      });
      return list.body.data.length === 2 && list.body.data.every((e) => e.status === "sent")
        ? list.body.data
        : null;
    });
    const newest = await env.FILES.get(`emails/${emails[0]?.id}/message.eml`);
    const secondToken = linkTokenIn((await newest?.text()) ?? "", "invitations");
    expect(secondToken).not.toBe(firstToken);
    expect((await call("GET", `/invitations/${firstToken}`)).status).toBe(410);
    expect((await call("GET", `/invitations/${secondToken}`)).status).toBe(200);
  });

  it("keeps another workspace's invitation out of reach (404)", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const theirs = await invite(other.token, "theirs@example.com");
    expect((await call("DELETE", `/v1/invitations/${theirs.body.id}`, { token: ws.token })).status).toBe(404);
    const resend = await callJson("POST", `/v1/invitations/${theirs.body.id}/resend`, { token: ws.token });
    expect(resend.status).toBe(404);
    expect(resend.body).toEqual({ ...errorBody("Not found", "not_found"), message: expect.any(String) });
    const list = await callJson<{ data: unknown[] }>("GET", "/v1/invitations", { token: ws.token });
    expect(list.body.data).toEqual([]);
  });
});

describe("the invitation page", () => {
  it("shows the invitation on GET without consuming it; the form POST accepts once and signs in", async () => {
    const ws = await seedWorkspace();
    await invite(ws.token, "new@example.com", "admin");
    const token = linkTokenIn((await sentSystemEmail(ws, "new@example.com")).raw, "invitations");

    for (let i = 0; i < 2; i++) {
      const page = await call("GET", `/invitations/${token}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
      expect(await page.text()).toContain("new@example.com is invited as admin");
    }
    const accepted = await acceptInvitationPage(token, { name: "New <b>Person</b>" });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("Location")).toBe("/dashboard");
    const cookie = accepted.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^__Host-session=[A-Za-z0-9_-]{43}; Max-Age|^__Host-session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");

    const users = await callJson<{ data: Array<Record<string, unknown>> }>("GET", "/v1/users", {
      token: ws.token,
    });
    expect(users.body.data).toEqual([
      expect.objectContaining({
        email: "new@example.com",
        name: "New <b>Person</b>",
        role: "admin",
        last_login_at: expect.any(String),
      }),
    ]);
    const list = await callJson<{ data: Invitation[] }>("GET", "/v1/invitations", { token: ws.token });
    expect(list.body.data[0]?.status).toBe("accepted");

    const signedIn = await call("GET", "/login", { headers: { Cookie: cookie.split(";")[0] ?? "" } });
    const html = await signedIn.text();
    expect(html).toContain("as new@example.com (admin)");

    // A token works once.
    expect((await acceptInvitationPage(token)).status).toBe(410);
    expect((await call("GET", `/invitations/${token}`)).status).toBe(410);
  });

  it("refuses an expired, revoked or unknown invitation, and a post from another origin", async () => {
    const ws = await seedWorkspace();
    const created = await invite(ws.token, "late@example.com");
    const token = linkTokenIn((await sentSystemEmail(ws, "late@example.com")).raw, "invitations");
    const foreign = await call("POST", `/invitations/${token}`, {
      rawBody: "name=x",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://evil.test",
        "CF-Connecting-IP": uniqueIp(),
      },
    });
    expect(foreign.status).toBe(403);

    await env.DB_2.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, created.body.id)
      .run();
    expect((await call("GET", `/invitations/${token}`)).status).toBe(410);
    expect((await acceptInvitationPage(token)).status).toBe(410);
    expect((await callJson("GET", "/v1/users", { token: ws.token })).body).toEqual({ data: [], count: 0 });
    expect((await call("GET", `/invitations/${"A".repeat(43)}`)).status).toBe(410);
    expect((await call("GET", "/invitations/short")).status).toBe(410);
  });
});
