import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const unique = () => crypto.randomUUID().slice(0, 8);

describe.skipIf(!inject("browser").chromium)("the Automations pages in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("creates an automation of two steps with the editor, activates it and shows its secret", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const name = `Onboarding ${unique()}`;
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "Automations", exact: true }).click();
    await page.getByRole("link", { name: "New automation" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    // A step button posts the form and the page comes back re-rendered: wait for it (and its CSS).
    const press = (button: ReturnType<typeof page.getByRole>) =>
      Promise.all([page.waitForEvent("load"), button.click()]);

    await press(page.getByRole("button", { name: "+ Wait" }));
    const first = page.getByRole("group", { name: "Step 1" });
    await first.getByLabel("Duration").fill("2d");
    await press(page.getByRole("button", { name: "+ Send email" }));
    // The first step's value survived the re-render; the second shows only its type's fields.
    expect(await page.getByRole("group", { name: "Step 1" }).getByLabel("Duration").inputValue()).toBe("2d");
    const second = page.getByRole("group", { name: "Step 2" });
    expect(await second.getByLabel("Duration").isVisible()).toBe(false);
    // Changing the type shows that type's fields, without script.
    await second.getByLabel("Type").selectOption("webhook");
    expect(await second.getByLabel("URL").isVisible()).toBe(true);
    expect(await second.getByLabel("Subject").isVisible()).toBe(false);
    await second.getByLabel("URL").fill("https://example.com/automation-hook");
    await second.getByLabel("Headers").fill("X-Team: growth");
    await screenshot(page, "automation-editor");

    // Move the webhook first, then back: the values follow their step.
    await press(second.getByRole("button", { name: "Move up" }));
    expect(await page.getByRole("group", { name: "Step 1" }).getByLabel("URL").inputValue()).toBe(
      "https://example.com/automation-hook",
    );
    await press(page.getByRole("group", { name: "Step 1" }).getByRole("button", { name: "Move down" }));

    await page.getByRole("button", { name: "Create automation" }).click();
    await expect.poll(() => page.getByText("Automation created as a draft.").count()).toBe(1);
    const id = new URL(page.url()).pathname.split("/").pop();
    const stored = (await (await api("GET", `/v1/automations/${id}`)).json()) as {
      name: string;
      secret: string;
      steps: Array<Record<string, unknown>>;
    };
    expect(stored.name).toBe(name);
    expect(stored.steps).toMatchObject([
      { type: "wait", duration: "2d" },
      {
        type: "webhook",
        url: "https://example.com/automation-hook",
        method: "POST",
        headers: { "X-Team": "growth" },
      },
    ]);

    await page.getByRole("button", { name: "Activate" }).click();
    await expect.poll(() => page.getByText("Activated: triggers now enrol contacts.").count()).toBe(1);
    await page.getByRole("button", { name: "Show secret" }).click();
    await expect.poll(() => page.getByText(stored.secret).count()).toBe(1);
    await screenshot(page, "automation");

    await page.getByRole("link", { name: "Automations", exact: true }).click();
    const row = page.getByRole("row", { name: new RegExp(name) });
    expect(await row.textContent()).toContain("active");
    await screenshot(page, "automations");
    expect(errors).toEqual([]);
  });
  it("sends a template from a step: chosen in the select, its values typed, kept by a later save", async () => {
    const suffix = unique();
    const created = await api("POST", "/v1/templates", {
      name: `Welcome ${suffix}`,
      subject: "Welcome {{first_name}}",
      html: '<p>Hi {{first_name}}, you are on {{PLAN}}.</p><a href="{{{unsubscribe_url}}}">Unsubscribe</a>',
      variables: [
        { key: "first_name", type: "string" },
        { key: "PLAN", type: "string" },
        { key: "unsubscribe_url", type: "string" },
      ],
    });
    expect(created.status).toBe(201);
    const template = ((await created.json()) as { id: string }).id;
    expect((await api("POST", `/v1/templates/${template}/publish`)).status).toBe(200);

    const { page, errors } = await signedInPage(browser, "admin");
    await page.goto(`${workerUrl}/dashboard/automations/new`);
    await page.getByLabel("Name", { exact: true }).fill(`Welcome flow ${suffix}`);
    await Promise.all([
      page.waitForEvent("load"),
      page.getByRole("button", { name: "+ Send email" }).click(),
    ]);
    const step = page.getByRole("group", { name: "Step 1" });
    await step.getByLabel("From", { exact: true }).fill("Acme <hello@example.com>");
    await step.locator('select[name$=".template_id"]').selectOption(template);
    await step.getByLabel(/^Template values/).fill('{"PLAN": "Pro"}');
    await page.getByRole("button", { name: "Create automation" }).click();
    await expect.poll(() => page.getByText("Automation created as a draft.").count()).toBe(1);
    const id = new URL(page.url()).pathname.split("/").pop();
    const stepsOf = async () =>
      ((await (await api("GET", `/v1/automations/${id}`)).json()) as { steps: unknown[] }).steps;
    const stored = await stepsOf();
    expect(stored).toEqual([
      {
        id: expect.stringMatching(/^stp_/),
        type: "send_email",
        from: "Acme <hello@example.com>",
        template: { id: template, variables: { PLAN: "Pro" } },
      },
    ]);

    // The saved page shows the template chosen; saving it again changes nothing.
    const saved = page.getByRole("group", { name: "Step 1" });
    expect(await saved.locator('select[name$=".template_id"]').inputValue()).toBe(template);
    await page.getByLabel("Name", { exact: true }).fill(`Welcome flow ${suffix} (renamed)`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.getByText("Saved.", { exact: false }).count()).toBe(1);
    expect(await stepsOf()).toEqual(stored);
    await screenshot(page, "automation-template-step");
    expect(errors).toEqual([]);
  });
});
