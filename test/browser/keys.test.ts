import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { STORE_TOKEN_WARNING } from "../../src/features/keys/keys.service";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

describe.skipIf(!inject("browser").chromium)("the API keys page in a real Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("creates a key whose token works once shown, then revokes it after a confirmation: the API refuses it", async () => {
    const { page, errors } = await signedInPage(browser, "owner");
    const name = `Browser key ${randomBytes(4).toString("hex")}`;
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "API keys" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "API keys", level: 1 }).count()).toBe(1);
    await screenshot(page, "keys");

    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Permission").selectOption("write");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Key created" }).count()).toBe(1);
    expect(await page.getByRole("alert").textContent()).toBe(STORE_TOKEN_WARNING);
    const token = (await page.locator(".secret").textContent())?.trim() ?? "";
    expect(token).toMatch(/^sk_/);
    await screenshot(page, "key-created");
    expect((await api("GET", "/v1/tickets?limit=1", undefined, token)).status).toBe(200);

    await page.getByRole("link", { name: "Back to API keys" }).click();
    const row = page.getByRole("row").filter({ hasText: name });
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.content()).not.toContain(token);
    // The page's confirmation dialog comes first; signedInPage accepts it.
    const asked: string[] = [];
    page.once("dialog", (dialog) => asked.push(dialog.message()));
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("The key was revoked.");
    expect(asked).toEqual([expect.stringContaining(`Revoke the key “${name}”?`)]);
    expect(await row.textContent()).toContain("revoked");
    expect(await row.getByRole("button", { name: "Revoke" }).count()).toBe(0);

    const refused = await api("GET", "/v1/tickets?limit=1", undefined, token);
    expect(refused.status).toBe(401);
    const keys = (await (await api("GET", "/v1/keys")).json()) as {
      data: Array<{ name: string; is_active: boolean }>;
    };
    expect(keys.data.find((k) => k.name === name)?.is_active).toBe(false);
    await screenshot(page, "keys-revoked");
    expect(errors).toEqual([]);
  });

  it("leaves the key alone when the confirmation is dismissed", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const name = `Kept key ${randomBytes(4).toString("hex")}`;
    const created = (await (await api("POST", "/v1/keys", { name, permission: "read" })).json()) as {
      token: string;
    };
    await page.goto(`${workerUrl}/dashboard/keys`);
    page.removeAllListeners("dialog");
    page.once("dialog", (dialog) => void dialog.dismiss());
    const row = page.getByRole("row").filter({ hasText: name });
    await row.getByRole("button", { name: "Revoke" }).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).search).toBe("");
    expect((await api("GET", "/v1/tickets?limit=1", undefined, created.token)).status).toBe(200);
    expect(errors).toEqual([]);
  });
});
