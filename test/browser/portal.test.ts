import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, workerUrl } from "./support/pages";

const { chromium } = inject("browser");

/** A page with no session at all, as a customer has, that records console errors (CSP refusals too). */
async function customerPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

/** The ticket link in the newest mail to `email` in the development mailbox. */
async function mailedTicketLink(email: string): Promise<string | undefined> {
  const mailbox = (await (await fetch(`${workerUrl}/_dev/mailbox.json`)).json()) as {
    data: Array<{ to: string[]; raw: string }>;
  };
  const mail = mailbox.data.find((m) => m.to.some((to) => to.includes(email)));
  // Quoted-printable soft line breaks may split the link.
  const path = /\/portal\/tickets\/shr_[0-9A-Z]{26}/.exec(mail?.raw.replace(/=\r?\n/g, "") ?? "")?.[0];
  return path ? `${workerUrl}${path}` : undefined;
}

describe.skipIf(!chromium)("the public portal in a real Chromium", () => {
  let browser: Browser;
  let inboxId: string;

  beforeAll(async () => {
    browser = await connectChromium();
    const res = await api("POST", "/v1/inboxes", {
      name: "Acme Support",
      email_address: `portal-${crypto.randomUUID().slice(0, 8)}@example.com`,
    });
    expect(res.status).toBe(201);
    inboxId = ((await res.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("opens a ticket with the contact form, follows its link and replies on the ticket page", async () => {
    const { page, errors } = await customerPage(browser);
    const shown = await page.goto(`${workerUrl}/portal/inboxes/${inboxId}/new`);
    expect(shown?.status()).toBe(200);
    expect(shown?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await expect.poll(() => page.getByRole("heading", { name: "Contact us" }).count()).toBe(1);
    // The honeypot is in the form but off-screen (the stylesheet moves it), and no keyboard reaches it.
    const trap = page.locator('input[name="website"]');
    const box = await trap.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);
    expect(await trap.getAttribute("tabindex")).toBe("-1");

    await page.getByLabel("Your name").fill("Grace Hopper");
    await page.getByLabel("Email").fill("grace@example.org");
    await page.getByLabel("Subject").fill("The printer is on fire");
    await page.getByLabel("Message").fill("It started this morning.\nThere is a lot of smoke.");
    await screenshot(page, "portal-new");
    await page.getByRole("button", { name: "Send" }).click();

    await expect.poll(() => page.getByRole("heading", { name: "Thank you" }).count()).toBe(1);
    expect(await page.textContent("main")).toContain("Check your email");
    expect(await page.content()).not.toContain("/portal/tickets/");
    await screenshot(page, "portal-thanks");
    // The ticket's link only goes by email, to the address given: read it from the development mailbox.
    await expect.poll(() => mailedTicketLink("grace@example.org"), { timeout: 15_000 }).toBeDefined();
    await page.goto((await mailedTicketLink("grace@example.org")) as string);
    await expect.poll(() => page.getByRole("heading", { name: "The printer is on fire" }).count()).toBe(1);
    expect(await page.textContent("main")).toContain("It started this morning.\nThere is a lot of smoke.");

    // The team answers through the API: the page shows the reply and waits on the customer.
    const sharedUuid = new URL(page.url()).pathname.split("/").pop();
    const tickets = (await (await api("GET", `/v1/tickets?inbox_id=${inboxId}`)).json()) as {
      data: Array<{ id: string; shared_uuid: string }>;
    };
    const ticketId = tickets.data.find((t) => t.shared_uuid === sharedUuid)?.id;
    const answer = await api("POST", `/v1/tickets/${ticketId}/messages`, {
      type: "reply",
      body_text: "Please unplug it and step away. We are sending someone.",
    });
    expect(answer.status).toBe(201);
    await page.reload();
    await expect.poll(() => page.locator(".portal-status").textContent()).toBe("Waiting on you");

    await page.getByLabel("Your message").fill("It is out now.\nThank you!");
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect.poll(() => page.locator("article.portal-message").count()).toBe(3);
    expect(await page.locator(".portal-status").textContent()).toBe("Open");
    expect(new URL(page.url()).hash).toMatch(/^#msg_/);
    expect(await page.locator("article.portal-message").last().textContent()).toContain(
      "It is out now.\nThank you!",
    );
    await screenshot(page, "portal-ticket");
    expect(errors).toEqual([]);
  });
});
