import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const unique = () => crypto.randomUUID().slice(0, 8);

describe.skipIf(!inject("browser").chromium)("the Changelog editor in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("writes an entry, previews it, saves it, publishes it, and finds it on the public page", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const title = `Faster search ${unique()}`;
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "Changelog", exact: true }).click();
    await page.getByRole("link", { name: "New entry" }).click();
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Category").selectOption("improved");
    await page
      .getByLabel("Body (Markdown)")
      .fill('Search is **twice** as fast.\n\n<script>alert("x")</script>\n\n- one\n- two');

    // Preview: htmx swaps the rendered body in; the page stays the editor and nothing is saved.
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.locator("#changelog-preview");
    await expect.poll(() => preview.locator("strong").textContent()).toBe("twice");
    expect(await preview.locator("li").count()).toBe(2);
    expect(await preview.locator("script").count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/dashboard/changelog/new");
    expect(await page.getByLabel("Title").inputValue()).toBe(title);
    await screenshot(page, "changelog-editor-preview");

    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText("Entry created.").count()).toBe(1);
    expect(await page.getByRole("heading", { name: title }).count()).toBe(1);

    await page.getByLabel("Status").selectOption("published");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText("Entry saved.").count()).toBe(1);
    await screenshot(page, "changelog-entry");

    const id = new URL(page.url()).pathname.split("/").pop();
    const entry = (await (await api("GET", `/v1/changelog/${id}`)).json()) as { status: string };
    expect(entry.status).toBe("published");

    await page.getByRole("link", { name: "View on the public page" }).click();
    await expect.poll(() => page.getByRole("heading", { name: title }).count()).toBe(1);
    expect(await page.locator(`[id="${id}"] strong`).textContent()).toBe("twice");
    await screenshot(page, "changelog-public");

    await page.goto(`${workerUrl}/dashboard/changelog`);
    expect(await page.getByRole("row", { name: new RegExp(title) }).textContent()).toContain("published");
    await screenshot(page, "changelog-list");
    expect(errors).toEqual([]);
  });
});
