import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { ATTEMPTS_PER_EMAIL, ATTEMPTS_PER_IP } from "../../src/features/sessions/rate-limit";
import { resolveSession } from "../../src/features/sessions/session";
import { call, callJson, db as database, directory, seedUser, seedWorkspace } from "./helpers";
import { cookieOf, linkTokenIn, postForm, sentSystemEmail, uniqueIp } from "./people-helpers";

/** A workspace with an active owner, and the sign-in link emailed to them. */
async function signInLink() {
  const ws = await seedWorkspace();
  const user = await seedUser(ws.accountId, { role: "owner" });
  const asked = await postForm("/login", { email: user.email.toUpperCase() });
  expect(asked.status).toBe(200);
  const { summary, raw } = await sentSystemEmail(ws, user.email);
  return { ws, user, summary, token: linkTokenIn(raw, "login") };
}

async function signIn() {
  const link = await signInLink();
  const res = await postForm(`/login/${link.token}`);
  expect(res.status).toBe(303);
  return { ...link, cookie: cookieOf(res) };
}

const sessionToken = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1);

/** The session a cookie opens, found as the dashboard finds it: the directory, then DB. */
const sessionOf = (cookie: string) =>
  resolveSession(directory(), async () => database(), sessionToken(cookie), Date.now());

describe("GET /login", () => {
  it("is a server-rendered form with a strict content security policy", async () => {
    const res = await call("GET", "/login");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain("script-src");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/login">');
    expect(html).not.toContain("<script");
  });
});

describe("magic links", () => {
  it("answers the same for known and unknown emails, and emails only the known one", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId);
    const known = await postForm("/login", { email: user.email });
    const unknown = await postForm("/login", { email: "nobody-here@example.com" });
    expect(known.status).toBe(unknown.status);
    expect(await known.text()).toBe(await unknown.text());
    const headers = (res: Response) =>
      [...res.headers].filter(([name]) => name !== "x-request-id").sort(([a], [b]) => a.localeCompare(b));
    expect(headers(known)).toEqual(headers(unknown));
    await sentSystemEmail(ws, user.email);
    const all = await env.DB_2.prepare("SELECT count(*) AS n FROM login_tokens WHERE user_id = ?")
      .bind(user.id)
      .first();
    expect(all?.n).toBe(1);
  });

  it("shows a Sign in button on GET without consuming the link; POST signs in once", async () => {
    const { ws, user, summary, token } = await signInLink();
    // Redacted like invitations: no key reads the link.
    const email = await call("GET", `/v1/emails/${summary.id}`, { token: ws.token });
    expect(await email.text()).not.toContain(token);
    expect((await call("GET", `/v1/emails/${summary.id}/content`, { token: ws.token })).status).toBe(404);
    expect(summary).toMatchObject({ subject: expect.stringContaining("Sign in to") });

    for (let i = 0; i < 2; i++) {
      const page = await call("GET", `/login/${token}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`<form method="post" action="/login/${token}">`);
      expect(html).toContain(user.email);
    }
    const res = await postForm(`/login/${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/dashboard");
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__Host-session=[A-Za-z0-9_-]{43};/);
    for (const part of ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"]) expect(setCookie).toContain(part);
    const expires = Date.parse(/Expires=([^;]+)/.exec(setCookie)?.[1] ?? "");
    expect(expires - Date.now()).toBeGreaterThan(13.9 * 86_400_000);

    const cookie = cookieOf(res);
    const stored = await env.DB_2.prepare("SELECT token_hash FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first();
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.token_hash).not.toBe(sessionToken(cookie));
    expect(await sessionOf(cookie)).toMatchObject({
      accountId: ws.accountId,
      userId: user.id,
      role: "owner",
    });
    const me = await callJson<{ last_login_at: string | null }>("GET", `/v1/users/${user.id}`, {
      token: ws.token,
    });
    expect(me.body.last_login_at).not.toBeNull();
    expect(await (await call("GET", "/login", { headers: { Cookie: cookie } })).text()).toContain(
      "Signed in",
    );

    // A link works once.
    expect((await postForm(`/login/${token}`)).status).toBe(410);
    expect((await call("GET", `/login/${token}`)).status).toBe(410);
  });

  it("refuses an expired link (15 minutes) and one posted from another origin", async () => {
    const { token } = await signInLink();
    expect((await postForm(`/login/${token}`, {}, { Origin: "https://evil.test" })).status).toBe(403);
    await env.DB_2.prepare("UPDATE login_tokens SET expires_at = ?")
      .bind(Date.now() - 1)
      .run();
    expect((await call("GET", `/login/${token}`)).status).toBe(410);
    expect((await postForm(`/login/${token}`)).status).toBe(410);
    expect((await postForm("/login", { email: "a@b.test" }, { Origin: "https://evil.test" })).status).toBe(
      403,
    );
    expect((await postForm("/login", { email: "not an email" })).status).toBe(400);
  });

  it("sends nothing to a disabled user", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId, { status: "disabled" });
    const active = await seedUser(ws.accountId);
    expect((await postForm("/login", { email: user.email })).status).toBe(200);
    expect((await postForm("/login", { email: active.email })).status).toBe(200);
    await sentSystemEmail(ws, active.email);
    const tokens = await env.DB_2.prepare("SELECT user_id FROM login_tokens WHERE account_id = ?")
      .bind(ws.accountId)
      .all<{ user_id: string }>();
    expect(tokens.results.map((r) => r.user_id)).toEqual([active.id]);
  });
});

describe("sessions", () => {
  it("end at once when the user is disabled or removed", async () => {
    const { ws, user, cookie } = await signIn();
    const owner = await seedUser(ws.accountId, { role: "owner" });
    // An API key changes no owner (users.test.ts): the signed-in people here are admins.
    const makeAdmin = (id: string) =>
      env.DB_2.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(id).run();
    await makeAdmin(user.id);
    expect(await sessionOf(cookie)).toBeDefined();
    const disabled = await call("PATCH", `/v1/users/${user.id}`, {
      token: ws.token,
      body: { status: "disabled" },
    });
    expect(disabled.status).toBe(200);
    expect(await sessionOf(cookie)).toBeUndefined();
    const page = await (await call("GET", "/login", { headers: { Cookie: cookie } })).text();
    expect(page).not.toContain("Signed in");
    const rows = await env.DB_2.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first();
    expect(rows?.n).toBe(0);

    // Even a session row that survived (written before the disable) does not resolve.
    const second = await signIn();
    await env.DB_2.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(second.user.id).run();
    expect(await sessionOf(second.cookie)).toBeUndefined();

    // Removing a user ends their sessions too (another owner remains).
    const third = await signIn();
    await seedUser(third.ws.accountId, { role: "owner" });
    await makeAdmin(third.user.id);
    expect((await call("DELETE", `/v1/users/${third.user.id}`, { token: third.ws.token })).status).toBe(200);
    expect(await sessionOf(third.cookie)).toBeUndefined();
    expect(owner.id).toBeTruthy();
  });

  it("expire after 14 days, end on POST /logout, and never authenticate /v1", async () => {
    const { user, cookie } = await signIn();
    const v1 = await call("GET", "/v1/users", { headers: { Cookie: cookie } });
    expect(v1.status).toBe(401);

    const out = await postForm("/logout", {}, { Cookie: cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("Set-Cookie")).toMatch(/^__Host-session=;.*Max-Age=0/);
    expect(await sessionOf(cookie)).toBeUndefined();

    const again = await signIn();
    await env.DB_2.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, again.user.id)
      .run();
    expect(await sessionOf(again.cookie)).toBeUndefined();
    expect(user.id).toBeTruthy();
  });

  it("use a cookie named `session` without Secure on plain-http loopback in development", async () => {
    const { token } = await signInLink();
    const app = createApp();
    const ctx = createExecutionContext();
    const res = await app.request(
      `http://127.0.0.1:8787/login/${token}`,
      {
        method: "POST",
        body: "",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://127.0.0.1:8787" },
      },
      { ...env, ENVIRONMENT: "development" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(303);
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).not.toContain("Secure");
    expect(setCookie).toContain("HttpOnly");
  });
});

describe("sign-in rate limits", () => {
  it("limit link requests per email, whatever the IP", async () => {
    const email = `limited-${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < ATTEMPTS_PER_EMAIL; i++)
      expect((await postForm("/login", { email })).status).toBe(200);
    const refused = await postForm("/login", { email: email.toUpperCase() });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many sign-in attempts");
  });

  it("limit attempts per IP, whatever the email or link", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < ATTEMPTS_PER_IP; i++) {
      const res = await postForm("/login", { email: `ip-${i}@example.com` }, { "CF-Connecting-IP": ip });
      expect(res.status).toBe(200);
    }
    expect(
      (await postForm("/login", { email: "one-more@example.com" }, { "CF-Connecting-IP": ip })).status,
    ).toBe(429);
    expect((await postForm(`/login/${"A".repeat(43)}`, {}, { "CF-Connecting-IP": ip })).status).toBe(429);
    expect((await postForm(`/login/${"A".repeat(43)}`, {}, { "CF-Connecting-IP": uniqueIp() })).status).toBe(
      410,
    );
  });
});
