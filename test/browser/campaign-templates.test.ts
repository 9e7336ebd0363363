import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const { chromium } = inject("browser");

describe.skipIf(!chromium)("a campaign that sends a template, in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("picks a template on a new campaign and previews what the sample recipient gets", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const created = await api("POST", "/v1/templates", {
      name: `Digest ${suffix}`,
      html: '<p style="color: rgb(0, 0, 200)">Hi {{FIRST_NAME}} from {{COMPANY}}, code {{CODE}}</p><a href="{{{unsubscribe_url}}}">Unsubscribe</a>',
      variables: [
        { key: "FIRST_NAME", type: "string" },
        { key: "COMPANY", type: "string" },
        { key: "CODE", type: "string" },
        { key: "unsubscribe_url", type: "string" },
      ],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await api("POST", `/v1/templates/${id}/publish`)).status).toBe(200);

    const { page, errors } = await signedInPage(browser, "owner");
    await page.goto(`${workerUrl}/dashboard/campaigns/new`);
    await page.getByLabel("Name", { exact: true }).fill(`Digest campaign ${suffix}`);
    await page.getByLabel("From", { exact: false }).first().fill("Acme <news@example.com>");
    await page.getByLabel("Subject", { exact: true }).fill("News for {{first_name}}");
    // Choosing the template body hides the HTML fields (the form still posts them; the radio decides).
    await expect.poll(() => page.getByLabel(/^HTML/).isVisible()).toBe(true);
    await page.getByLabel("Use a template").check();
    await expect.poll(() => page.getByLabel(/^HTML/).isVisible()).toBe(false);
    await page.locator('select[name="template_id"]').selectOption(id);
    await page.getByLabel("Static variable 1 key").fill("COMPANY");
    await page.getByLabel("Static variable 1 value").fill("Globex");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("done")).toBe("created");

    const frame = page.frameLocator("iframe.preview-frame");
    await expect
      .poll(() => frame.locator("body").textContent())
      .toContain("Hi Ada from Globex, code {{CODE}}");
    expect(await page.locator("iframe.preview-frame").getAttribute("sandbox")).toBe("");
    // The email's inline style applies under the page's policy.
    type InBrowser = { getComputedStyle(element: unknown): { color: string } };
    const color = await frame
      .locator("p")
      .evaluate((p) => (globalThis as unknown as InBrowser).getComputedStyle(p).color);
    expect(color).toBe("rgb(0, 0, 200)");
    expect(await page.locator("[data-preview=missing]").textContent()).toContain(
      "recipients without a value for CODE are skipped",
    );
    expect(await page.getByRole("link", { name: `Digest ${suffix}` }).getAttribute("href")).toBe(
      `/dashboard/templates/${id}`,
    );
    expect(await page.getByLabel("Use a template").isChecked()).toBe(true);
    await screenshot(page, "campaign-template-preview");
    expect(errors).toEqual([]);
  });
});
