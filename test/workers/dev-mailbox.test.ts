import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { callJson, seedWorkspace } from "./helpers";
import { sentSystemEmail } from "./people-helpers";

/** The app as `wrangler dev` runs it: ENVIRONMENT=development. */
async function inDevelopment(path: string) {
  const ctx = createExecutionContext();
  const res = await createApp().request(
    `http://127.0.0.1:8787${path}`,
    {},
    { ...env, ENVIRONMENT: "development" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

type Mailbox = {
  data: Array<{ id: string; from: string; to: string[]; subject: string; created_at: string; raw: string }>;
};

describe("the development mailbox", () => {
  it("lists every captured message, system mail included, newest first, in JSON and HTML", async () => {
    const ws = await seedWorkspace();
    await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "first@example.com", role: "agent" },
    });
    const first = await sentSystemEmail(ws, "first@example.com");
    await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "second@example.com", role: "agent" },
    });
    const second = await sentSystemEmail(ws, "second@example.com");

    const json = await inDevelopment("/_dev/mailbox.json");
    expect(json.status).toBe(200);
    const { data } = (await json.json()) as Mailbox;
    const ids = data.map((m) => m.id);
    expect(ids.indexOf(second.summary.id)).toBeLessThan(ids.indexOf(first.summary.id));
    expect(data.find((m) => m.id === first.summary.id)).toEqual({
      id: first.summary.id,
      from: env.SYSTEM_FROM,
      to: ["first@example.com"],
      subject: first.summary.subject,
      created_at: expect.stringMatching(/Z$/),
      raw: first.raw,
    });

    const page = await inDevelopment("/_dev/mailbox");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(`id="${second.summary.id}"`);
    expect(html).toContain("first@example.com");
    expect(html).not.toMatch(/<a href="http[^"]*\/invitations\//); // messages are shown as text, never rendered
  });

  it("does not exist outside development", async () => {
    for (const path of ["/_dev/mailbox", "/_dev/mailbox.json"]) {
      const res = await callJson("GET", path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "route_not_found" });
    }
  });
});
