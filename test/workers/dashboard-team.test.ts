import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nameTokenHashes } from "../../src/db/directory/token-hashes";
import { invitations, users } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { call, callJson, db, directory, seedUser, seedWorkspace } from "./helpers";
import { postForm, sentSystemEmail } from "./people-helpers";

type Invitation = {
  id: string;
  email: string;
  role: string;
  status: string;
  expires_at: string;
  invited_by: string;
};
type User = { id: string; email: string; role: string; status: string };

async function team(options: Parameters<typeof seedWorkspace>[0] = {}) {
  const ws = await seedWorkspace(options);
  const owner = await signIn(ws.accountId, "owner");
  const admin = await signIn(ws.accountId, "admin");
  const agent = await signIn(ws.accountId, "agent");
  return { ws, owner, admin, agent };
}

const invitationsOf = async (token: string) =>
  (await callJson<{ data: Invitation[] }>("GET", "/v1/invitations", { token })).body.data;

const userOf = async (token: string, id: string) =>
  (await callJson<User>("GET", `/v1/users/${id}`, { token })).body;

describe("the Team page", () => {
  it("lists users and pending invitations to everyone; the actions only to admins and owners", async () => {
    const { ws, owner, agent } = await team();
    await db().update(users).set({ name: "<script>alert(1)</script>" }).where(eq(users.id, agent.user.id));
    await call("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "grace@example.com", role: "admin" },
    });
    const revoked = await callJson<Invitation>("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "gone@example.com", role: "agent" },
    });
    await call("DELETE", `/v1/invitations/${revoked.body.id}`, { token: ws.token });
    const other = await team();

    const html = await (await dashboardGet("/dashboard/team", owner)).text();
    expect(html).toContain("<h1>Team</h1>");
    for (const who of [owner, agent]) expect(html).toContain(`<td>${who.user.email}</td>`);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('<span class="muted"> (you)</span>');
    expect(html).toContain("<td>grace@example.com</td>");
    expect(html).toContain(`API key <code>${ws.keyId}</code>`);
    expect(html).not.toContain("gone@example.com");
    expect(html).not.toContain(other.owner.user.email);
    expect(html).toContain(">Invite</button>");
    expect(html).toContain(">Revoke</button>");
    expect(html).toContain(">Change role</button>");
    expect(html).toContain(">Disable</button>");

    const asAgent = await (await dashboardGet("/dashboard/team", agent)).text();
    expect(asAgent).toContain("<td>grace@example.com</td>");
    expect(asAgent).toContain(`<td>${owner.user.email}</td>`);
    for (const action of ["Invite", "Resend", "Revoke", "Change role", "Disable"]) {
      expect(asAgent).not.toContain(`>${action}</button>`);
    }
    // Besides the top bar's ticket search (a GET form): only Sign out and their own Set away.
    expect(asAgent.match(/<form(?! method="get" action="\/dashboard\/tickets")/g)).toHaveLength(2);
    expect(asAgent).toContain(`action="/dashboard/team/users/${agent.user.id}/availability"`);
  });

  it("paginates users and pending invitations separately", async () => {
    const { ws, owner } = await team();
    for (let i = 0; i < 23; i++) await seedUser(ws.accountId);
    const now = Date.now();
    const rows = Array.from({ length: 26 }, (_, i) => ({
      id: newId("inv"),
      accountId: ws.accountId,
      email: `page-${i}@example.com`,
      role: "agent" as const,
      tokenHash: crypto.randomUUID(),
      expiresAt: now + 86_400_000,
      invitedBy: owner.user.id,
      createdAt: now + i,
      updatedAt: now + i,
    }));
    // Named as every invitation is, though no link of theirs exists.
    await nameTokenHashes(directory(), "invitation", rows);
    for (const row of rows) await db().insert(invitations).values(row);

    const first = await (await dashboardGet("/dashboard/team", owner)).text();
    expect(first).toContain("1–25 of 26");
    expect(first.match(/1–25 of 26/g)).toHaveLength(2);
    expect(first).toContain('href="/dashboard/team?offset=25"');
    expect(first).toContain('href="/dashboard/team?invitations_offset=25"');
    // Newest invitation first; the dashboard names its inviter by email.
    expect(first).toContain("page-25@example.com");
    expect(first).not.toContain("page-0@example.com");
    expect(first).toContain(`<td><span>${owner.user.email}</span></td>`);

    const second = await (
      await dashboardGet("/dashboard/team?offset=25&invitations_offset=25", owner)
    ).text();
    expect(second).toContain("26–26 of 26");
    expect(second).toContain("page-0@example.com");
    expect(second).not.toContain("page-25@example.com");
    expect(second).toContain('href="/dashboard/team?invitations_offset=25"');
  });
});

describe("invitations from the Team page", () => {
  it("invites through the API's path: pending, invited by the user, emailed (in GET /v1/emails)", async () => {
    const { ws, admin } = await team();
    const res = await dashboardPost("/dashboard/team/invitations", admin, {
      email: "Ada@Example.com",
      role: "admin",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/dashboard/team?done=invited");
    const [invitation] = await invitationsOf(ws.token);
    // The API's own answer is valid: invited_by is the inviting user.
    expect(invitation).toMatchObject({
      email: "ada@example.com",
      role: "admin",
      status: "pending",
      invited_by: admin.user.id,
    });
    const { summary } = await sentSystemEmail(ws, "ada@example.com");
    expect(summary.subject).toContain("You are invited to");
    const page = await (await dashboardGet("/dashboard/team?done=invited", admin)).text();
    expect(page).toContain("Invitation sent.");
    expect(page).toContain(`<td><span>${admin.user.email}</span></td>`);
  });

  it("answers the API's refusals as pages: 409 for a member or a pending invitation, 429 at the limit, 400 for bad input", async () => {
    const { ws, owner, agent } = await team({ overrides: { team_members: 4 } });
    const pending = await dashboardPost("/dashboard/team/invitations", owner, {
      email: "grace@example.com",
      role: "agent",
    });
    expect(pending.status).toBe(303);

    const again = await dashboardPost("/dashboard/team/invitations", owner, {
      email: "grace@example.com",
      role: "agent",
    });
    expect(again.status).toBe(409);
    expect(again.headers.get("Content-Type")).toContain("text/html");
    expect(await again.text()).toContain("has a pending invitation; resend or revoke it instead.");
    const member = await dashboardPost("/dashboard/team/invitations", owner, {
      email: agent.user.email,
      role: "agent",
    });
    expect(member.status).toBe(409);
    expect(await member.text()).toContain("is already a user of this workspace");

    // Owner, admin, agent and Grace's invitation take the 4 seats.
    const full = await dashboardPost("/dashboard/team/invitations", owner, {
      email: "late@example.com",
      role: "agent",
    });
    expect(full.status).toBe(429);
    expect(await full.text()).toContain("Team member limit reached");

    const bad = await dashboardPost("/dashboard/team/invitations", owner, {
      email: "not an email",
      role: "boss",
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("<code>body.email</code>");
    expect(html).toContain("<code>body.role</code>");
    expect((await invitationsOf(ws.token)).map((i) => i.email)).toEqual(["grace@example.com"]);
  });

  it("resends (a new link, a second email) and revokes; another workspace's invitation is 404", async () => {
    const { ws, admin } = await team();
    await dashboardPost("/dashboard/team/invitations", admin, { email: "grace@example.com", role: "agent" });
    const [invitation] = await invitationsOf(ws.token);
    const id = invitation?.id ?? "";
    await sentSystemEmail(ws, "grace@example.com");

    // The API's resend cooldown holds here too: a 429 page saying to wait.
    const early = await dashboardPost(`/dashboard/team/invitations/${id}/resend`, admin);
    expect(early.status).toBe(429);
    expect(early.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await early.text()).toContain("wait before resending it");
    await db()
      .update(invitations)
      .set({ updatedAt: Date.now() - 61_000 })
      .where(eq(invitations.id, id));
    const resent = await dashboardPost(`/dashboard/team/invitations/${id}/resend`, admin);
    expect(resent.status).toBe(303);
    expect(resent.headers.get("Location")).toBe("/dashboard/team?done=resent");
    const emails = await callJson<{ data: Array<{ to: string[] }> }>("GET", "/v1/emails", {
      token: ws.token,
    });
    expect(emails.body.data.filter((e) => e.to.includes("grace@example.com"))).toHaveLength(2);

    const page = await (await dashboardGet("/dashboard/team", admin)).text();
    expect(page).toContain(
      `data-confirm="Revoke the invitation of grace@example.com? Its link stops working."`,
    );
    const revoked = await dashboardPost(`/dashboard/team/invitations/${id}/revoke`, admin);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toBe("/dashboard/team?done=revoked");
    expect((await invitationsOf(ws.token))[0]?.status).toBe("revoked");
    const gone = await (await dashboardGet("/dashboard/team?done=revoked", admin)).text();
    expect(gone).toContain("Invitation revoked");
    expect(gone).not.toContain("<td>grace@example.com</td>");

    const twice = await dashboardPost(`/dashboard/team/invitations/${id}/revoke`, admin);
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("only a pending invitation can be resent or revoked");

    const other = await team();
    for (const action of ["resend", "revoke"]) {
      expect((await dashboardPost(`/dashboard/team/invitations/${id}/${action}`, other.owner)).status).toBe(
        404,
      );
    }
  });
});

describe("users from the Team page", () => {
  it("changes a role and disables and enables a user, as PATCH /v1/users does", async () => {
    const { ws, owner, agent } = await team();
    const role = await dashboardPost(`/dashboard/team/users/${agent.user.id}/role`, owner, { role: "admin" });
    expect(role.status).toBe(303);
    expect(role.headers.get("Location")).toBe("/dashboard/team?done=role_changed");
    expect(await userOf(ws.token, agent.user.id)).toMatchObject({ role: "admin", status: "active" });

    const disabled = await dashboardPost(`/dashboard/team/users/${agent.user.id}/status`, owner, {
      status: "disabled",
    });
    expect(disabled.status).toBe(303);
    expect(disabled.headers.get("Location")).toBe("/dashboard/team?done=disabled");
    expect((await userOf(ws.token, agent.user.id)).status).toBe("disabled");
    // Disabling ends their session at once.
    expect((await dashboardGet("/dashboard/team", agent)).headers.get("Location")).toBe("/login");
    const page = await (await dashboardGet("/dashboard/team?done=disabled", owner)).text();
    expect(page).toContain("User disabled and signed out.");
    expect(page).toContain(">Enable</button>");

    const enabled = await dashboardPost(`/dashboard/team/users/${agent.user.id}/status`, owner, {
      status: "active",
    });
    expect(enabled.headers.get("Location")).toBe("/dashboard/team?done=enabled");
    expect((await userOf(ws.token, agent.user.id)).status).toBe("active");
  });

  it("lets only an owner make an owner, or demote or disable one: an admin cannot take the workspace", async () => {
    const { ws, owner, admin, agent } = await team();
    const attempts = [
      [`/dashboard/team/users/${admin.user.id}/role`, { role: "owner" }],
      [`/dashboard/team/users/${agent.user.id}/role`, { role: "owner" }],
      [`/dashboard/team/users/${owner.user.id}/role`, { role: "agent" }],
      [`/dashboard/team/users/${owner.user.id}/status`, { status: "disabled" }],
      ["/dashboard/team/invitations", { email: "new-owner@example.com", role: "owner" }],
    ] as const;
    for (const [path, fields] of attempts) {
      const res = await dashboardPost(path, admin, fields);
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("Only an owner can");
    }
    expect(await userOf(ws.token, admin.user.id)).toMatchObject({ role: "admin", status: "active" });
    expect(await userOf(ws.token, agent.user.id)).toMatchObject({ role: "agent" });
    expect(await userOf(ws.token, owner.user.id)).toMatchObject({ role: "owner", status: "active" });
    expect(await invitationsOf(ws.token)).toEqual([]);
    // Admins still manage admins and agents.
    expect(
      (await dashboardPost(`/dashboard/team/users/${agent.user.id}/role`, admin, { role: "admin" })).status,
    ).toBe(303);
    // The owner may make the admin an owner; then either owner manages the other.
    expect(
      (await dashboardPost(`/dashboard/team/users/${admin.user.id}/role`, owner, { role: "owner" })).status,
    ).toBe(303);
    expect(
      (await dashboardPost(`/dashboard/team/users/${owner.user.id}/status`, admin, { status: "disabled" }))
        .status,
    ).toBe(303);
  });

  it("refuses to demote or disable the last owner, with a page giving the reason", async () => {
    const { ws, owner, admin } = await team();
    for (const [path, fields] of [
      [`/dashboard/team/users/${owner.user.id}/role`, { role: "admin" }],
      [`/dashboard/team/users/${owner.user.id}/status`, { status: "disabled" }],
    ] as const) {
      const res = await dashboardPost(path, owner, fields);
      expect(res.status, path).toBe(409);
      expect(res.headers.get("Content-Type")).toContain("text/html");
      const html = await res.text();
      expect(html).toContain("<h1>Conflict</h1>");
      expect(html).toContain("A workspace keeps at least one active owner: make another user owner first.");
    }
    expect(await userOf(ws.token, owner.user.id)).toMatchObject({ role: "owner", status: "active" });
    // Once there is another owner, the first may step down.
    await dashboardPost(`/dashboard/team/users/${admin.user.id}/role`, owner, { role: "owner" });
    expect(
      (await dashboardPost(`/dashboard/team/users/${owner.user.id}/role`, owner, { role: "agent" })).status,
    ).toBe(303);
    expect((await userOf(ws.token, owner.user.id)).role).toBe("agent");
  });

  it("refuses an agent every action (403 page, nothing changed), a form without the CSRF token, and another workspace's ids (404)", async () => {
    const { ws, owner, admin, agent } = await team();
    await dashboardPost("/dashboard/team/invitations", owner, { email: "grace@example.com", role: "agent" });
    const [invitation] = await invitationsOf(ws.token);
    const posts: Array<[string, Record<string, string>]> = [
      ["/dashboard/team/invitations", { email: "sneaky@example.com", role: "owner" }],
      [`/dashboard/team/invitations/${invitation?.id}/resend`, {}],
      [`/dashboard/team/invitations/${invitation?.id}/revoke`, {}],
      [`/dashboard/team/users/${agent.user.id}/role`, { role: "owner" }],
      [`/dashboard/team/users/${admin.user.id}/status`, { status: "disabled" }],
    ];
    for (const [path, fields] of posts) {
      const res = await dashboardPost(path, agent, fields);
      expect(res.status, path).toBe(403);
      expect(await res.text()).toContain("<h1>Not allowed</h1>");
      expect((await postForm(path, fields, { Cookie: owner.cookie })).status, path).toBe(403);
    }
    expect(await invitationsOf(ws.token)).toEqual([invitation]);
    expect(await userOf(ws.token, agent.user.id)).toMatchObject({ role: "agent", status: "active" });
    expect((await userOf(ws.token, admin.user.id)).status).toBe("active");

    const other = await team();
    const role = await dashboardPost(`/dashboard/team/users/${agent.user.id}/role`, other.owner, {
      role: "admin",
    });
    expect(role.status).toBe(404);
    const status = await dashboardPost(`/dashboard/team/users/${agent.user.id}/status`, other.owner, {
      status: "disabled",
    });
    expect(status.status).toBe(404);
    expect(await userOf(ws.token, agent.user.id)).toMatchObject({ role: "agent", status: "active" });
  });
});
