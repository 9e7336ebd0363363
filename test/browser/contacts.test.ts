import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const unique = () => crypto.randomUUID().slice(0, 8);

describe.skipIf(!inject("browser").chromium)("the Contacts pages in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("creates a group, imports a CSV, sees the members, and removes one after confirming", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const id = unique();
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "Contacts", exact: true }).click();
    await page.getByRole("link", { name: "New group" }).click();
    await page.getByLabel("Name").fill(`Readers ${id}`);
    await page.getByRole("button", { name: "Create group" }).click();
    await expect.poll(() => page.getByRole("heading", { name: `Readers ${id}` }).count()).toBe(1);

    const csv = `email,name\nada-${id}@example.com,Ada Lovelace\n"grace-${id}@example.com","Hopper, Grace"\n`;
    await page.getByLabel("Lines of email,name").fill(csv);
    await page.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => page.getByText("Imported: added 2, skipped 0.").count()).toBe(1);
    const members = page.getByRole("table");
    expect(await members.textContent()).toContain(`ada-${id}@example.com`);
    expect(await members.textContent()).toContain("Hopper, Grace");
    await screenshot(page, "contacts-group");

    // A bad line: reported by number, nothing added.
    await page.getByLabel("Lines of email,name").fill(`new-${id}@example.com\nnot an address`);
    await page.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => page.getByText("Line 2:").count()).toBe(1);
    expect(await page.getByRole("table").textContent()).not.toContain(`new-${id}@example.com`);

    // Remove asks first (the page accepts the dialog), then the member is gone.
    const row = page.getByRole("row", { name: new RegExp(`ada-${id}`) });
    await row.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.getByText("Member removed").count()).toBe(1);
    expect(await page.getByRole("table").textContent()).not.toContain(`ada-${id}@example.com`);

    const groupId = new URL(page.url()).pathname.split("/").pop();
    const list = (await (await api("GET", `/v1/contact-groups/${groupId}/members`)).json()) as {
      data: Array<{ email: string; name: string | null }>;
    };
    expect(list.data).toMatchObject([{ email: `grace-${id}@example.com`, name: "Hopper, Grace" }]);
    // The refused import's page answers 400, which Chromium logs as a failed load; nothing else.
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
    expect(errors).toHaveLength(1);
  });
});
