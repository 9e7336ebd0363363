import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expiredTokenHashesDelete, nameTokenHashes, TOKEN_KINDS } from "../../src/db/directory/token-hashes";
import { invitations, loginTokens, sessions, users } from "../../src/db/schema";
import { expiredSignInDeletes } from "../../src/features/sessions/sessions.repo";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { call, callJson, db, directory, eventually, seedUser, seedWorkspace } from "./helpers";
import { acceptInvitationPage, cookieOf, linkTokenIn, postForm, sentSystemEmail } from "./people-helpers";
import { expectIndexed, planOf } from "./query-plan";

/**
 * The dashboard's people flows find their workspace in the directory: a session cookie, a sign-in
 * link, an invitation link and the email POST /login is given. The record is in the workspace's
 * shard, which has the last word; what the directory does not name is not found.
 */

const TABLE_OF = { session: "session_hashes", signIn: "sign_in_hashes", invitation: "invitation_hashes" };

/** The workspace the directory names for a token's hash, or null. */
const namedIn = async (kind: keyof typeof TABLE_OF, token: string) =>
  (
    await env.DIRECTORY.prepare(`SELECT account_id FROM ${TABLE_OF[kind]} WHERE token_hash = ?`)
      .bind(await sha256Hex(token))
      .first<{ account_id: string }>()
  )?.account_id ?? null;

const memberEmailsOf = async (email: string) =>
  (
    await env.DIRECTORY.prepare("SELECT account_id FROM member_emails WHERE email = ? ORDER BY account_id")
      .bind(email)
      .all<{ account_id: string }>()
  ).results.map((row) => row.account_id);

const dashboard = (cookie: string) => call("GET", "/dashboard", { headers: { Cookie: cookie } });

/** A session written in the shard only, as a crash between the two writes of a new one would not leave it. */
async function shardOnlySession(accountId: string, userId: string) {
  const token = randomBase64Url(32);
  const now = Date.now();
  const row = { tokenHash: await sha256Hex(token), accountId, expiresAt: now + 86_400_000 };
  await db()
    .insert(sessions)
    .values({ ...row, userId, createdAt: now });
  return { token, row, cookie: `__Host-session=${token}` };
}

/** The link of the sign-in email POST /login sent to `email` in the workspace. */
async function emailedLink(ws: { token: string }, email: string) {
  return linkTokenIn((await sentSystemEmail(ws, email)).raw, "login");
}

describe("dashboard sessions in the directory", () => {
  it("are named before their shard row, and POST /logout removes both", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId, { role: "owner" });
    await postForm("/login", { email: user.email });
    const signedIn = await postForm(`/login/${await emailedLink(ws, user.email)}`);
    expect(signedIn.status).toBe(303);
    const cookie = cookieOf(signedIn);
    const token = cookie.slice(cookie.indexOf("=") + 1);
    expect(await namedIn("session", token)).toBe(ws.accountId);
    expect((await dashboard(cookie)).status).toBe(200);

    expect((await postForm("/logout", {}, { Cookie: cookie })).status).toBe(303);
    expect(await namedIn("session", token)).toBeNull();
    const rows = await env.DB_2.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    expect((await dashboard(cookie)).headers.get("Location")).toBe("/login");
  });

  it("open nothing the directory does not name, though the shard holds it", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId, { role: "owner" });
    const session = await shardOnlySession(ws.accountId, user.id);
    const refused = await dashboard(session.cookie);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("Location")).toBe("/login");
    // Named (as `npm run directory:backfill` names the sessions made before the directory), it opens.
    await nameTokenHashes(directory(), "session", [session.row]);
    expect((await dashboard(session.cookie)).status).toBe(200);
  });

  it("trust the shard over the directory: a session named for another workspace opens nothing", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const user = await seedUser(ws.accountId, { role: "owner" });
    const session = await shardOnlySession(ws.accountId, user.id);
    await nameTokenHashes(directory(), "session", [{ ...session.row, accountId: other.accountId }]);
    expect((await dashboard(session.cookie)).headers.get("Location")).toBe("/login");
  });
});

describe("sign-in links in the directory", () => {
  it("are named when POST /login sends them; a link the directory does not name is not found", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId);
    await postForm("/login", { email: user.email });
    expect(await namedIn("signIn", await emailedLink(ws, user.email))).toBe(ws.accountId);

    const token = randomBase64Url(32);
    const link = {
      tokenHash: await sha256Hex(token),
      accountId: ws.accountId,
      expiresAt: Date.now() + 600_000,
    };
    await db()
      .insert(loginTokens)
      .values({ ...link, userId: user.id, createdAt: Date.now() });
    expect((await call("GET", `/login/${token}`)).status).toBe(410);
    expect((await postForm(`/login/${token}`)).status).toBe(410);
    await nameTokenHashes(directory(), "signIn", [link]);
    expect((await call("GET", `/login/${token}`)).status).toBe(200);
    expect((await postForm(`/login/${token}`)).status).toBe(303);
  });

  it("POST /login finds a person's workspaces through the directory, one link in each", async () => {
    const email = `many-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const first = await seedWorkspace();
    const second = await seedWorkspace();
    const unnamed = await seedWorkspace();
    for (const ws of [first, second]) await seedUser(ws.accountId, { email });
    // A user the directory does not name (a crash before it was named): POST /login does not find them.
    await db()
      .insert(users)
      .values({
        id: newId("usr"),
        accountId: unnamed.accountId,
        email,
        role: "agent",
        createdAt: Date.now(),
        updatedAt: Date.now(),
      });
    expect(await memberEmailsOf(email)).toEqual([first.accountId, second.accountId].sort());

    expect((await postForm("/login", { email })).status).toBe(200);
    for (const ws of [first, second])
      expect(await namedIn("signIn", await emailedLink(ws, email))).toBe(ws.accountId);
    const links = await env.DB_2.prepare(
      "SELECT account_id FROM login_tokens WHERE user_id IN (SELECT id FROM users WHERE email = ?)",
    )
      .bind(email)
      .all<{ account_id: string }>();
    expect(links.results.map((row) => row.account_id).sort()).toEqual(
      [first.accountId, second.accountId].sort(),
    );
  });
});

describe("invitation links in the directory", () => {
  const invite = (token: string, email: string) =>
    callJson<{ id: string }>("POST", "/v1/invitations", { token, body: { email, role: "agent" } });

  it("are named when made, replaced on resend and forgotten on revoke", async () => {
    const ws = await seedWorkspace();
    const created = await invite(ws.token, "named@example.com");
    const first = linkTokenIn((await sentSystemEmail(ws, "named@example.com")).raw, "invitations");
    expect(await namedIn("invitation", first)).toBe(ws.accountId);

    // Past the resend cooldown (invitation-limits.test.ts).
    await env.DB_2.prepare("UPDATE invitations SET updated_at = ? WHERE id = ?")
      .bind(Date.now() - 61_000, created.body.id)
      .run();
    expect(
      (await call("POST", `/v1/invitations/${created.body.id}/resend`, { token: ws.token })).status,
    ).toBe(200);
    const stored = await env.DB_2.prepare("SELECT token_hash FROM invitations WHERE id = ?")
      .bind(created.body.id)
      .first<{ token_hash: string }>();
    const named = (hash: string) =>
      env.DIRECTORY.prepare("SELECT account_id FROM invitation_hashes WHERE token_hash = ?")
        .bind(hash)
        .first();
    expect(await named(stored?.token_hash ?? "")).toEqual({ account_id: ws.accountId });
    await eventually(async () => (await namedIn("invitation", first)) === null);

    expect((await call("DELETE", `/v1/invitations/${created.body.id}`, { token: ws.token })).status).toBe(
      200,
    );
    await eventually(async () => (await named(stored?.token_hash ?? "")) === null);
  });

  it("a refused invitation leaves no name", async () => {
    const ws = await seedWorkspace();
    await invite(ws.token, "twice@example.com");
    const before = await env.DIRECTORY.prepare(
      "SELECT count(*) AS n FROM invitation_hashes WHERE account_id = ?",
    )
      .bind(ws.accountId)
      .first<{ n: number }>();
    expect((await invite(ws.token, "twice@example.com")).status).toBe(409);
    const after = await env.DIRECTORY.prepare(
      "SELECT count(*) AS n FROM invitation_hashes WHERE account_id = ?",
    )
      .bind(ws.accountId)
      .first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("open nothing the directory does not name; accepting one names the new member's email", async () => {
    const ws = await seedWorkspace();
    const token = randomBase64Url(32);
    const now = Date.now();
    const row = { tokenHash: await sha256Hex(token), accountId: ws.accountId, expiresAt: now + 86_400_000 };
    await db()
      .insert(invitations)
      .values({
        ...row,
        id: newId("inv"),
        email: "unnamed@example.com",
        role: "agent",
        invitedBy: ws.keyId,
        createdAt: now,
        updatedAt: now,
      });
    expect((await call("GET", `/invitations/${token}`)).status).toBe(410);
    expect((await acceptInvitationPage(token)).status).toBe(410);
    expect(await memberEmailsOf("unnamed@example.com")).toEqual([]);

    await nameTokenHashes(directory(), "invitation", [row]);
    expect((await call("GET", `/invitations/${token}`)).status).toBe(200);
    const accepted = await acceptInvitationPage(token);
    expect(accepted.status).toBe(303);
    expect(await memberEmailsOf("unnamed@example.com")).toEqual([ws.accountId]);
    expect(await namedIn("session", cookieOf(accepted).split("=")[1] ?? "")).toBe(ws.accountId);
    expect((await dashboard(cookieOf(accepted))).status).toBe(200);
  });
});

describe("members' emails in the directory", () => {
  it("are named when a member is added, and a removed user leaves none", async () => {
    const ws = await seedWorkspace();
    const email = `member-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const added = await callJson<{ id: string }>("POST", "/v1/members", {
      token: ws.token,
      body: { email: email.toUpperCase(), role: "agent" },
    });
    expect(added.status).toBe(201);
    expect(await memberEmailsOf(email)).toEqual([ws.accountId]);
    expect((await call("DELETE", `/v1/users/${added.body.id}`, { token: ws.token })).status).toBe(200);
    expect(await memberEmailsOf(email)).toEqual([]);
  });

  it("stay named when removing the user is refused", async () => {
    const ws = await seedWorkspace();
    const owner = await seedUser(ws.accountId, { role: "owner" });
    const removed = await call("DELETE", `/v1/users/${owner.id}`, { token: ws.token });
    expect(removed.status).toBe(403);
    expect(await memberEmailsOf(owner.email)).toEqual([ws.accountId]);
  });
});

describe("the minute cron", () => {
  it("prunes expired sessions and sign-in links, and the directory's expired names", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId);
    const now = Date.now();
    const entry = async (expiresAt: number) => ({
      tokenHash: await sha256Hex(randomBase64Url(32)),
      accountId: ws.accountId,
      expiresAt,
    });
    const expired = await entry(now - 1);
    const live = await entry(now + 600_000);
    for (const kind of TOKEN_KINDS) await nameTokenHashes(directory(), kind, [expired, live]);
    for (const row of [expired, live]) {
      await db()
        .insert(sessions)
        .values({ ...row, userId: user.id, createdAt: now - 10 });
      await db()
        .insert(loginTokens)
        .values({ ...row, userId: user.id, createdAt: now - 10 });
    }

    await worker.scheduled(
      createScheduledController({ cron: CRON.everyMinute, scheduledTime: now }),
      env,
      createExecutionContext(),
    );
    const left = async (database: D1Database, table: string) =>
      (
        await database
          .prepare(`SELECT token_hash FROM ${table} WHERE token_hash IN (?, ?)`)
          .bind(expired.tokenHash, live.tokenHash)
          .all<{ token_hash: string }>()
      ).results.map((row) => row.token_hash);
    for (const table of Object.values(TABLE_OF))
      expect(await left(env.DIRECTORY, table)).toEqual([live.tokenHash]);
    for (const table of ["sessions", "login_tokens"])
      expect(await left(env.DB_2, table)).toEqual([live.tokenHash]);
  });

  it("prunes through the expiry indexes", async () => {
    const now = Date.now();
    for (const kind of TOKEN_KINDS) {
      expectIndexed(
        await planOf(expiredTokenHashesDelete(directory(), kind, now, 10), env.DIRECTORY),
        TABLE_OF[kind],
      );
    }
    const [sessionsDelete, linksDelete] = expiredSignInDeletes(db(), now, 10);
    expectIndexed(await planOf(sessionsDelete), "sessions");
    expectIndexed(await planOf(linksDelete), "login_tokens");
  });
});
