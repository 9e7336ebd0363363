import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const { chromium, ownerEmail } = inject("browser");

interface Template {
  id: string;
  status: string;
  html: string;
  has_unpublished_versions: boolean;
  current_version_id: string;
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await api(method, path, body);
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** The copy of a mail to `recipient` whose subject is `subject`, once the queue has sent it. */
async function mailed(recipient: string, subject: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { data } = (await (await fetch(`${workerUrl}/_dev/mailbox.json`)).json()) as {
      data: Array<{ recipient: string; subject: string; raw: string }>;
    };
    const mail = data.find((m) => m.recipient === recipient && m.subject === subject);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${recipient}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const doneOf = (page: Page) => new URL(page.url()).searchParams.get("done");
const preview = (page: Page) => page.locator("#template-preview");
const frameText = (page: Page) => page.frameLocator("iframe.preview-frame").locator("body").textContent();
const variable = (page: Page, row: number, part: "key" | "type" | "fallback" | "preview value") =>
  page.getByLabel(`Variable ${row} ${part}`, { exact: true });

describe.skipIf(!chromium)("email templates in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("edits with a live preview, shows a markup error's line and column, publishes, restores and test-sends", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const { page, errors } = await signedInPage(browser, "owner");
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "Templates", exact: true }).click();
    await page.getByRole("link", { name: "New template" }).click();
    await page.waitForLoadState("load");

    await page.getByLabel("Name", { exact: true }).fill(`Receipt ${suffix}`);
    await page.getByLabel(/^Alias/).fill(`receipt-${suffix}`);
    await page.getByLabel("Subject", { exact: true }).fill("Order {{ORDER}}");
    await page.getByLabel(/^From/).fill("Acme <orders@example.com>");
    await variable(page, 1, "key").fill("NAME");
    await variable(page, 1, "fallback").fill("there");
    await variable(page, 2, "key").fill("ORDER");
    await variable(page, 2, "type").selectOption("number");
    const html = page.getByLabel(/^HTML/);
    await html.fill('<p style="color: rgb(200, 0, 0)">Hello {{NAME}}</p>');

    // The preview follows the typing: the fallback fills NAME, ORDER has no value yet.
    await expect.poll(() => frameText(page)).toContain("Hello there");
    await expect
      .poll(() => preview(page).locator("[data-preview=missing]").textContent())
      .toContain("{{ORDER}}");
    // The frame runs nothing and shows the email's inline styles.
    expect(await page.locator("iframe.preview-frame").getAttribute("sandbox")).toBe("");
    const styled = page.frameLocator("iframe.preview-frame").locator("p");
    // The browser's own check: the paragraph's style attribute applied under the page's policy.
    type InBrowser = { getComputedStyle(element: unknown): { color: string } };
    const color = await styled.evaluate(
      (p) => (globalThis as unknown as InBrowser).getComputedStyle(p).color,
    );
    expect(color).toBe("rgb(200, 0, 0)");

    await variable(page, 2, "preview value").fill("42");
    await expect.poll(() => preview(page).locator(".preview-subject").textContent()).toContain("Order 42");
    await expect.poll(() => preview(page).locator("[data-preview=missing]").count()).toBe(0);

    // An unclosed tag on line 2 is named with its line and column; nothing is rendered meanwhile.
    await html.fill("<p>Hello {{NAME}}</p>\n<p>Order {{ORDER</p>");
    const markupErrors = page.getByRole("alert", { name: "Markup errors" });
    await expect.poll(() => markupErrors.textContent()).toContain("line 2, column 10");
    expect(await page.locator("iframe.preview-frame").count()).toBe(0);
    await screenshot(page, "templates-markup-error");
    await html.fill("<p>Hello {{NAME}}</p>\n<p>Order {{ORDER}}</p>");
    await expect.poll(() => frameText(page)).toContain("Order 42");
    await expect.poll(() => markupErrors.count()).toBe(0);

    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => doneOf(page)).toBe("created");
    const id = new URL(page.url()).pathname.split("/").pop() as string;
    expect(await page.locator(".page-header").textContent()).toContain("unpublished changes");

    await page.getByRole("button", { name: "Publish" }).click();
    await expect.poll(() => doneOf(page)).toBe("published");
    expect(await page.locator(".page-header").textContent()).not.toContain("unpublished changes");
    const published = await json<Template>("GET", `/v1/templates/${id}`);
    expect(published).toMatchObject({ status: "published", has_unpublished_versions: false });
    expect(published.html).toBe("<p>Hello {{NAME}}</p>\n<p>Order {{ORDER}}</p>");

    // Edited again: a new draft, shown as unpublished changes here and in the list.
    await page.getByLabel(/^HTML/).fill("<p>Hi {{NAME}}, order {{ORDER}} is on its way</p>");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => doneOf(page)).toBe("saved");
    expect(await page.locator(".page-header").textContent()).toContain("unpublished changes");
    await page.goto(`${workerUrl}/dashboard/templates`);
    const row = page.getByRole("row").filter({ hasText: `Receipt ${suffix}` });
    expect(await row.textContent()).toContain("unpublished changes");
    expect(await row.textContent()).toContain(`receipt-${suffix}`);

    // The published version restored: the draft holds its content again.
    await row.getByRole("link").click();
    const versions = page.getByRole("table", { name: "Versions" });
    const publishedRow = versions.locator(`tr[data-version="${published.current_version_id}"]`);
    await publishedRow.getByRole("button", { name: "Restore" }).click();
    await expect.poll(() => doneOf(page)).toBe("restored");
    expect(await page.getByLabel(/^HTML/).inputValue()).toBe(published.html);
    expect((await json<Template>("GET", `/v1/templates/${id}`)).html).toBe(published.html);

    // A test to me: the editor's content with the preview's values, to the owner's own address.
    await variable(page, 2, "preview value").fill("7");
    await page.getByRole("button", { name: "Send a test to me" }).click();
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Test email sent to you." }).count())
      .toBe(1);
    expect(await variable(page, 2, "preview value").inputValue()).toBe("7");
    const mail = await mailed(ownerEmail, "[Test] Order 7");
    expect(mail.raw.replace(/=\r?\n/g, "")).toContain("Order 7");
    expect(errors).toEqual([]);
  });

  it("refuses a test that would need a placeholder, and a publish from a page that is out of date", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const { id } = await json<{ id: string }>("POST", "/v1/templates", {
      name: `Welcome ${suffix}`,
      subject: "Welcome {{NAME}}",
      from: "Acme <hello@example.com>",
      html: "<p>Welcome {{NAME}}</p>",
      variables: [{ key: "NAME", type: "string" }],
    });
    const first = await signedInPage(browser, "admin");
    const second = await signedInPage(browser, "owner");
    const url = `${workerUrl}/dashboard/templates/${id}`;
    await first.page.goto(url);
    await second.page.goto(url);

    // NAME has no value and no fallback: nothing is sent.
    await first.page.getByRole("button", { name: "Send a test to me" }).click();
    const refused = first.page.getByRole("alert").filter({ hasText: "Template variables are invalid" });
    await expect.poll(() => refused.count()).toBe(1);
    expect(await refused.textContent()).toContain("variables.NAME");

    // The first tab saves an edit; the second, still showing the old draft, may not publish it.
    await first.page.goto(url);
    await first.page.getByLabel(/^HTML/).fill("<p>Welcome aboard, {{NAME}}</p>");
    await first.page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => doneOf(first.page)).toBe("saved");
    await second.page.getByRole("button", { name: "Publish" }).click();
    const stale = second.page.getByRole("alert").filter({ hasText: "reload it" });
    await expect.poll(() => stale.count()).toBe(1);
    expect((await json<Template>("GET", `/v1/templates/${id}`)).status).toBe("draft");

    // Reloaded, it publishes what it now shows.
    await second.page.goto(url);
    await second.page.getByRole("button", { name: "Publish" }).click();
    await expect.poll(() => doneOf(second.page)).toBe("published");
    const template = await json<Template>("GET", `/v1/templates/${id}`);
    expect(template).toMatchObject({ status: "published", html: "<p>Welcome aboard, {{NAME}}</p>" });
    // The refused forms' pages answered 400 and 409, which Chromium reports on the console.
    const unexpected = (list: string[]) => list.filter((e) => !/status of 40[09]/.test(e));
    expect(unexpected(first.errors)).toEqual([]);
    expect(unexpected(second.errors)).toEqual([]);
  });

  it("makes a layout, picks it on a template, and previews the template in its frame", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const { page, errors } = await signedInPage(browser, "owner");
    await page.goto(`${workerUrl}/dashboard/templates`);
    await page.getByRole("link", { name: "Layouts", exact: true }).click();
    await page.getByRole("link", { name: "New layout" }).click();
    await page.waitForLoadState("load");
    expect(await page.getByLabel("Subject", { exact: true }).count()).toBe(0);
    await page.getByLabel("Name", { exact: true }).fill(`Frame ${suffix}`);
    await page
      .getByLabel(/^HTML/)
      .fill(`<header>Header ${suffix}</header>{{{@content}}}<footer>Footer</footer>`);
    // The layout's own preview: a placeholder block where a template's content goes.
    await expect.poll(() => frameText(page)).toContain("The template's content goes here");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => doneOf(page)).toBe("created");
    await page.getByRole("button", { name: "Publish" }).click();
    await expect.poll(() => doneOf(page)).toBe("published");
    const layoutId = new URL(page.url()).pathname.split("/").pop() as string;

    await page.goto(`${workerUrl}/dashboard/templates/new`);
    await page.getByLabel("Name", { exact: true }).fill(`Framed ${suffix}`);
    await page.getByLabel("Subject", { exact: true }).fill("Hello");
    await page.getByLabel(/^HTML/).fill("<p>Body of the template</p>");
    await expect.poll(() => frameText(page)).toContain("Body of the template");
    expect(await frameText(page)).not.toContain(`Header ${suffix}`);
    await page.getByLabel(/^Layout/).selectOption(layoutId);
    await expect.poll(() => frameText(page)).toContain(`Header ${suffix}`);
    expect(await frameText(page)).toContain("Body of the template");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => doneOf(page)).toBe("created");
    const id = new URL(page.url()).pathname.split("/").pop() as string;
    expect(await json<{ layout_id?: string }>("GET", `/v1/templates/${id}`)).toMatchObject({
      layout_id: layoutId,
    });
    expect(await frameText(page)).toContain(`Header ${suffix}`);
    expect(errors).toEqual([]);
  });

  it("shows an agent the templates without the actions", async () => {
    const { id } = await json<{ id: string }>("POST", "/v1/templates", {
      name: `Read only ${crypto.randomUUID().slice(0, 8)}`,
      html: "<p>Hi</p>",
    });
    const { page } = await signedInPage(browser, "agent");
    await page.goto(`${workerUrl}/dashboard/templates/${id}`);
    expect(await frameText(page)).toContain("Hi");
    expect(await page.getByRole("button", { name: "Save draft" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Publish" }).count()).toBe(0);
    // With this session's token and from this origin, the publish is still the agent's 403.
    const headers = JSON.parse((await page.locator("body").getAttribute("hx-headers")) ?? "{}");
    const token = headers["X-CSRF-Token"] as string;
    const response = await page.request.post(`${workerUrl}/dashboard/templates/${id}/publish`, {
      form: { version_id: "x", revision: "0", _csrf: token },
      headers: { Origin: workerUrl },
    });
    expect(response.status()).toBe(403);
    expect((await json<Template>("GET", `/v1/templates/${id}`)).status).toBe("draft");
  });
});
