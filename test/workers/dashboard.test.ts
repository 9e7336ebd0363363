import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts } from "../../src/db/schema";
import { NAV } from "../../src/ui/layout";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { call, callJson, db, seedWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

describe("the dashboard shell", () => {
  it("sends / to /dashboard, and /dashboard to /login without a session", async () => {
    const home = await call("GET", "/");
    expect(home.status).toBe(302);
    expect(home.headers.get("Location")).toBe("/dashboard");
    for (const path of ["/dashboard", "/dashboard/tickets"]) {
      const res = await call("GET", path);
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe("/login");
    }
    const stale = await call("GET", "/dashboard", {
      headers: { Cookie: `__Host-session=${"x".repeat(43)}` },
    });
    expect(stale.headers.get("Location")).toBe("/login");
  });

  it("shows the overview with every navigation entry, under a strict content security policy", async () => {
    const ws = await seedWorkspace();
    await db().update(accounts).set({ name: "Shell <b>works</b>" }).where(eq(accounts.id, ws.accountId));
    const owner = await signIn(ws.accountId, "owner");
    const res = await dashboardGet("/dashboard", owner);
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(html).not.toContain(" style=");
    for (const item of NAV) expect(html).toContain(`>${item.name}</a>`);
    // The workspace name is escaped.
    expect(html).toContain("Shell &lt;b&gt;works&lt;/b&gt;");
    expect(html).toContain("<h1>Overview</h1>");
    expect(html).toContain("Emails this month");
  });

  it("hides API keys from an agent's navigation", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    const html = await (await dashboardGet("/dashboard", agent)).text();
    expect(html).toContain(">Tickets</a>");
    expect(html).not.toContain(">API keys</a>");
  });

  it("refuses a state change without this session's CSRF token, or from another origin, with a 403 page", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const other = await signIn(ws.accountId, "admin");
    const missing = await postForm("/dashboard", {}, { Cookie: owner.cookie });
    expect(missing.status).toBe(403);
    expect(missing.headers.get("Content-Type")).toContain("text/html");
    expect(await missing.text()).toContain("Reload the page");
    // Another session's token is not this session's.
    expect((await dashboardPost("/dashboard", { ...owner, csrf: other.csrf })).status).toBe(403);
    const crossSite = await postForm(
      "/dashboard",
      { _csrf: owner.csrf },
      { Cookie: owner.cookie, Origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain("This form was sent from another site");
    // With the token and from this origin it passes the checks, and finds no such form.
    const passed = await dashboardPost("/dashboard", owner);
    expect(passed.status).toBe(405);
    expect(passed.headers.get("Content-Type")).toContain("text/html");
    const nowhere = await dashboardPost("/dashboard/nowhere", owner);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.text()).toContain("<h1>Not found</h1>");
  });
});

describe("workspace settings on the Overview", () => {
  const settings = {
    name: "Renamed <i>desk</i>",
    ticket_prefix: "HELP",
    request_log_retention: "12h",
    email_retention_days: "14",
    default_track_opens: "on",
  };

  it("saves through the account service, for admins only", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    expect(await (await dashboardGet("/dashboard", admin)).text()).toContain("Workspace settings");
    const saved = await dashboardPost("/dashboard/settings", admin, settings);
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe("/dashboard?done=settings");
    const account = await callJson("GET", `/v1/accounts/${ws.accountId}`, { token: ws.token });
    expect(account.body).toMatchObject({
      name: settings.name,
      ticket_prefix: "HELP",
      request_log_retention: "12h",
      email_retention: "14d",
      default_track_opens: true,
      default_track_clicks: false,
    });
    const page = await (await dashboardGet("/dashboard?done=settings", admin)).text();
    expect(page).toContain("Settings saved.");
    expect(page).toContain("Renamed &lt;i&gt;desk&lt;/i&gt;");
  });

  it("refuses what PATCH refuses, with a 400 page naming the field", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const res = await dashboardPost("/dashboard/settings", owner, { ...settings, ticket_prefix: "lower" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("ticket_prefix");
  });

  it("shows the email retention in force with the plan's maximum, and saves it as PATCH does", async () => {
    const ws = await seedWorkspace({ plan: "pro" });
    const owner = await signIn(ws.accountId, "owner");
    const storedDays = async () =>
      (
        await db()
          .select({ days: accounts.emailRetentionDays })
          .from(accounts)
          .where(eq(accounts.id, ws.accountId))
      )[0]?.days;
    const field = (html: string) => /<input[^>]*name="email_retention_days"[^>]*>/.exec(html)?.[0] ?? "";
    const page = await (await dashboardGet("/dashboard", owner)).text();
    expect(field(page)).toContain('value="90"');
    expect(field(page)).toContain('max="90"');
    expect(field(page)).toContain('min="1"');
    expect(page).toContain("at most 90 on the pro plan");

    // Saving the other settings with the retention shown leaves it following the plan.
    expect(
      (await dashboardPost("/dashboard/settings", owner, { ...settings, email_retention_days: "90" })).status,
    ).toBe(303);
    expect(await storedDays()).toBeNull();

    expect(
      (await dashboardPost("/dashboard/settings", owner, { ...settings, email_retention_days: "7" })).status,
    ).toBe(303);
    expect(await storedDays()).toBe(7);
    expect(field(await (await dashboardGet("/dashboard", owner)).text())).toContain('value="7"');

    const above = await dashboardPost("/dashboard/settings", owner, {
      ...settings,
      email_retention_days: "91",
    });
    expect(above.status).toBe(422);
    const reason = await above.text();
    expect(reason).toContain("email_retention");
    expect(reason).toContain("pro plan");
    expect(reason).toContain("That did not work");
    for (const bad of ["0", "1.5", "", "ten"]) {
      const res = await dashboardPost("/dashboard/settings", owner, {
        ...settings,
        email_retention_days: bad,
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("email_retention");
    }
    expect(await storedDays()).toBe(7);

    // On a plan changed down the form shows the cap, and saving other settings still works.
    await db()
      .update(accounts)
      .set({ plan: "free", emailRetentionDays: 60 })
      .where(eq(accounts.id, ws.accountId));
    const capped = await (await dashboardGet("/dashboard", owner)).text();
    expect(field(capped)).toContain('value="30"');
    expect(capped).toContain("at most 30 on the free plan");
    const renamed = await dashboardPost("/dashboard/settings", owner, {
      ...settings,
      email_retention_days: "30",
    });
    expect(renamed.status).toBe(303);
    expect(await storedDays()).toBe(60);
  });

  it("shows agents no settings and refuses their post with a 403 page", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    expect(await (await dashboardGet("/dashboard", agent)).text()).not.toContain("Workspace settings");
    const res = await dashboardPost("/dashboard/settings", agent, settings);
    expect(res.status).toBe(403);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const account = await callJson<{ name: string }>("GET", `/v1/accounts/${ws.accountId}`, {
      token: ws.token,
    });
    expect(account.body.name).not.toBe(settings.name);
  });
});
