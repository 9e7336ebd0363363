import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "../../src/db/schema";
import { STORE_TOKEN_WARNING } from "../../src/features/keys/keys.service";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { addKey, call, callJson, db, seedWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

type KeyList = { data: Array<{ id: string; name: string; is_active: boolean; permission: string }> };

const listKeys = async (token: string) => (await callJson<KeyList>("GET", "/v1/keys", { token })).body.data;

const keyRow = async (id: string) => (await db().select().from(apiKeys).where(eq(apiKeys.id, id)))[0];

/** Creates a key through the page and answers the page's HTML and the token it shows. */
async function createInPage(who: SignedIn, fields: { name: string; permission: string }) {
  const res = await dashboardPost("/dashboard/keys", who, fields);
  expect(res.status).toBe(200);
  const html = await res.text();
  const token = /<p class="secret">(sk_[A-Za-z0-9_-]+)<\/p>/.exec(html)?.[1];
  expect(token, "the created page shows the token").toBeDefined();
  return { html, token: token ?? "" };
}

describe("the API keys page", () => {
  it("lists the workspace's keys, revoked ones included, with prefix, permission and status", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const read = await addKey(ws.accountId, "read");
    const gone = await addKey(ws.accountId, "write");
    await call("GET", "/v1/tickets", { token: read.token });
    await dashboardPost(`/dashboard/keys/${gone.id}/revoke`, await signIn(ws.accountId, "owner"));
    const owner = await signIn(ws.accountId, "owner");

    const res = await dashboardGet("/dashboard/keys", owner);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>API keys</h1>");
    expect(html).toContain('aria-current="page">API keys</a>');
    for (const key of [read, gone]) expect(html).toContain(`<code>${key.key_prefix}…</code>`);
    expect(html).toContain(">revoked</span>");
    expect(html).toContain(">active</span>");
    // Used keys show when; the revoked key has no Revoke button, the two active ones do.
    expect(html.match(/<time datetime=/g)).toHaveLength(4);
    expect(html.match(/>never<\/span>/g)).toHaveLength(2);
    expect(html.match(/>Revoke<\/button>/g)).toHaveLength(2);
    expect(html).not.toContain(`/dashboard/keys/${gone.id}/revoke`);
    // Nothing of another workspace, and never a token.
    expect(html).not.toContain((await listKeys(other.token))[0]?.id);
    expect(html).not.toContain(read.token);
    expect(html).toContain("1–3 of 3");
  });

  it("paginates", async () => {
    const ws = await seedWorkspace();
    for (let i = 0; i < 3; i++) await addKey(ws.accountId, "read");
    const owner = await signIn(ws.accountId, "admin");
    const first = await (await dashboardGet("/dashboard/keys?limit=2", owner)).text();
    expect(first).toContain("1–2 of 4");
    expect(first).toContain('href="/dashboard/keys?limit=2&amp;offset=2">Next</a>');
    const second = await (await dashboardGet("/dashboard/keys?limit=2&offset=2", owner)).text();
    expect(second).toContain("3–4 of 4");
    expect(second.match(/>Revoke<\/button>/g)).toHaveLength(2);
    expect((await dashboardGet("/dashboard/keys?limit=1000", owner)).status).toBe(400);
  });

  it("creates a key and shows its token once: the token works on the API and no page shows it again", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const { html, token } = await createInPage(admin, { name: "Made in the page", permission: "write" });
    expect(html).toContain(STORE_TOKEN_WARNING);
    expect(html).toContain("<h1>Key created</h1>");

    const listed = (await listKeys(ws.token)).find((k) => k.name === "Made in the page");
    expect(listed).toMatchObject({ permission: "write", is_active: true });
    expect((await call("GET", "/v1/tickets", { token })).status).toBe(200);
    // write is not admin: the permission chosen is the one the key got.
    expect((await call("GET", "/v1/keys", { token })).status).toBe(403);

    const later = await (await dashboardGet("/dashboard/keys", admin)).text();
    expect(later).toContain("Made in the page");
    expect(later).not.toContain(token);
    expect(later).not.toContain(STORE_TOKEN_WARNING);
  });

  it("refuses an invalid key form with a 400 page and creates nothing", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    for (const fields of [
      { name: "", permission: "read" },
      { name: "Root", permission: "root" },
      { name: "x".repeat(101), permission: "read" },
    ]) {
      const res = await dashboardPost("/dashboard/keys", owner, fields);
      expect(res.status).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("text/html");
    }
    expect(await listKeys(ws.token)).toHaveLength(1);
  });

  it("revokes a key: the very next API request with it gets 401, and the list shows it revoked", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const { token } = await createInPage(owner, { name: "Short-lived", permission: "read" });
    // The guard has the key cached, active, before the revocation.
    expect((await call("GET", "/v1/tickets", { token })).status).toBe(200);
    const id = (await listKeys(ws.token)).find((k) => k.name === "Short-lived")?.id ?? "";

    const res = await dashboardPost(`/dashboard/keys/${id}/revoke`, owner);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/dashboard/keys?done=revoked");

    const refused = await callJson("GET", "/v1/tickets", { token });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: "Invalid API key" });
    expect(await keyRow(id)).toMatchObject({ isActive: false, revokedAt: expect.any(Number) });
    const page = await (await dashboardGet("/dashboard/keys?done=revoked", owner)).text();
    expect(page).toContain("The key was revoked.");
    expect(page).not.toContain(`/dashboard/keys/${id}/revoke`);
    // Revoking again changes nothing and is no error.
    expect((await dashboardPost(`/dashboard/keys/${id}/revoke`, owner)).status).toBe(303);
    // The notice is picked by code: anything else is refused, never shown.
    expect((await dashboardGet("/dashboard/keys?done=%3Cb%3Ehi", owner)).status).toBe(400);
  });

  it("is for admins and owners: an agent gets the 403 page on every route, and nothing changes", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    const page = await dashboardGet("/dashboard/keys", agent);
    expect(page.status).toBe(403);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    expect(await page.text()).toContain("This page is for admins and owners; you are signed in as agent.");

    const create = await dashboardPost("/dashboard/keys", agent, {
      name: "Agent's key",
      permission: "admin",
    });
    expect(create.status).toBe(403);
    const revoke = await dashboardPost(`/dashboard/keys/${ws.keyId}/revoke`, agent);
    expect(revoke.status).toBe(403);
    expect(await listKeys(ws.token)).toEqual([expect.objectContaining({ id: ws.keyId, is_active: true })]);
  });

  it("answers another workspace's key with the 404 page and revokes nothing", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const res = await dashboardPost(`/dashboard/keys/${other.keyId}/revoke`, owner);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("<h1>Not found</h1>");
    expect((await keyRow(other.keyId))?.isActive).toBe(true);
    expect((await call("GET", "/v1/keys", { token: other.token })).status).toBe(200);
    expect((await dashboardPost("/dashboard/keys/key_nothing/revoke", owner)).status).toBe(404);
  });

  it("revokes a key whose guard has not seen it yet", async () => {
    const ws = await seedWorkspace();
    const key = await addKey(ws.accountId, "read");
    const owner = await signIn(ws.accountId, "owner");
    expect((await dashboardPost(`/dashboard/keys/${key.id}/revoke`, owner)).status).toBe(303);
    expect((await call("GET", "/v1/tickets", { token: key.token })).status).toBe(401);
  });

  it("refuses a revocation or a creation without the CSRF token, or from another origin", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const path = `/dashboard/keys/${ws.keyId}/revoke`;
    expect((await postForm(path, {}, { Cookie: owner.cookie })).status).toBe(403);
    const crossSite = await postForm(
      path,
      { _csrf: owner.csrf },
      { Cookie: owner.cookie, Origin: "http://127.0.0.1:9" },
    );
    expect(crossSite.status).toBe(403);
    const created = await postForm(
      "/dashboard/keys",
      { name: "Forged", permission: "admin" },
      { Cookie: owner.cookie },
    );
    expect(created.status).toBe(403);
    expect((await keyRow(ws.keyId))?.isActive).toBe(true);
    expect((await call("GET", "/v1/keys", { token: ws.token })).status).toBe(200);
    expect((await listKeys(ws.token)).map((k) => k.name)).not.toContain("Forged");
  });

  it("escapes key names on the list, the created page and the confirmation", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const name = `<script>alert("k")</script>`;
    const { html } = await createInPage(owner, { name, permission: "read" });
    const list = await (await dashboardGet("/dashboard/keys", owner)).text();
    for (const page of [html, list]) {
      expect(page).not.toContain("<script>alert");
      expect(page).toContain("&lt;script&gt;alert(&quot;k&quot;)&lt;/script&gt;");
    }
    expect(list).toContain('data-confirm="Revoke the key “&lt;script&gt;alert(&quot;k&quot;)');
  });
});
