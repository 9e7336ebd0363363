import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NAV } from "../../src/ui/layout";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

/** A page of another origin (same site: 127.0.0.1 on another port) holding a form aimed at the dashboard. */
function attackerSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server });
    });
  });
}

describe.skipIf(!inject("browser").chromium)("the dashboard's defences in a real Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("answers an agent opening API keys with the 403 page", async () => {
    const { page, errors } = await signedInPage(browser, "agent");
    await page.goto(`${workerUrl}/dashboard`);
    expect(await page.getByRole("link", { name: "API keys" }).count()).toBe(0);
    const response = await page.goto(`${workerUrl}/dashboard/keys`);
    expect(response?.status()).toBe(403);
    expect(response?.headers()["content-type"]).toContain("text/html");
    expect(await page.getByRole("heading", { name: "Not allowed" }).count()).toBe(1);
    expect(await page.getByRole("alert").textContent()).toBe(
      "This page is for admins and owners; you are signed in as agent.",
    );
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    await screenshot(page, "forbidden");
    // The refused document itself is the only thing the console may mention.
    expect(errors.filter((e) => !e.includes("status of 403"))).toEqual([]);
  });

  it("refuses a form posted from another origin, even one carrying the owner's real CSRF token", async () => {
    const { page, errors } = await signedInPage(browser, "owner");
    await page.goto(`${workerUrl}/dashboard/keys`);
    // The worst case: the attacker somehow holds this session's token; the origin check still refuses.
    const headers = JSON.parse((await page.locator("body").getAttribute("hx-headers")) ?? "{}");
    const stolen = headers["X-CSRF-Token"] as string;
    expect(stolen).toMatch(/^[0-9a-f]{64}$/);

    const name = `Forged key ${randomBytes(4).toString("hex")}`;
    const attacker = await attackerSite(`<!doctype html>
<title>Win a prize</title>
<form method="post" action="${workerUrl}/dashboard/keys">
  <input type="hidden" name="name" value="${name}">
  <input type="hidden" name="permission" value="admin">
  <input type="hidden" name="_csrf" value="${stolen}">
  <button type="submit">Claim your prize</button>
</form>`);
    try {
      await page.goto(attacker.url);
      const [answer] = await Promise.all([
        page.waitForResponse(
          (r) => r.url() === `${workerUrl}/dashboard/keys` && r.request().method() === "POST",
        ),
        page.getByRole("button", { name: "Claim your prize" }).click(),
      ]);
      expect(answer.status()).toBe(403);
      // The session cookie did go along (same site, SameSite=Lax): only the origin check stood in the way.
      expect((await answer.request().allHeaders()).cookie).toContain("session=");
      await expect.poll(() => page.getByRole("heading", { name: "Not allowed" }).count()).toBe(1);
      await screenshot(page, "cross-site-refused");
    } finally {
      attacker.server.close();
    }
    const keys = (await (await api("GET", "/v1/keys")).json()) as { data: Array<{ name: string }> };
    expect(keys.data.map((k) => k.name)).not.toContain(name);
    expect(errors.filter((e) => !e.includes("status of 403"))).toEqual([]);
  });

  it("serves every page of the navigation under the strict CSP, with nothing refused in the console", async () => {
    const { page, errors } = await signedInPage(browser, "owner");
    const first = await page.goto(`${workerUrl}/dashboard`);
    const csp = first?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");

    const links = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link");
    expect(await links.allTextContents()).toEqual(NAV.map((item) => item.name));
    const hrefs = await Promise.all(
      (await links.all()).map(async (link) => (await link.getAttribute("href")) ?? ""),
    );
    for (const href of hrefs) {
      const response = await page.goto(`${workerUrl}${href}`);
      expect(response?.status(), href).toBe(200);
      expect(response?.headers()["content-security-policy"], href).toBe(csp);
      expect(errors, href).toEqual([]);
    }
  });
});
