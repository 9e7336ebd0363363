import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { WORKER_SECRETS } from "../../smtp-relay/test/support/running-worker";
import { newId } from "../../src/lib/ids";
import { unsubscribeToken } from "../../src/mail/unsubscribe-token";
import { api, connectChromium, screenshot, workerUrl } from "./support/pages";

const { chromium } = inject("browser");

describe.skipIf(!chromium)("an unsubscribe link in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the address, unsubscribes with the button, and confirms", async () => {
    const email = `leaving-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const created = await api("POST", "/v1/customers", { email });
    expect(created.status).toBe(201);
    const customerId = ((await created.json()) as { id: string }).id;
    const token = await unsubscribeToken(WORKER_SECRETS.ENCRYPTION_KEY, {
      customerId,
      campaignId: newId("cmp"),
    });

    // No session: whoever holds the email opens the link.
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));

    const shown = await page.goto(`${workerUrl}/u/${token}`);
    expect(shown?.status()).toBe(200);
    expect(shown?.headers()["content-security-policy"]).toContain("default-src 'none'");
    expect(await page.textContent("main")).toContain(email);
    await screenshot(page, "unsubscribe-confirm");
    await page.getByRole("button", { name: "Unsubscribe" }).click();

    await expect.poll(() => page.getByRole("heading", { name: "You are unsubscribed" }).count()).toBe(1);
    await screenshot(page, "unsubscribe-done");
    const customer = (await (await api("GET", `/v1/customers/${customerId}`)).json()) as {
      unsubscribed: boolean;
    };
    expect(customer.unsubscribed).toBe(true);
    const list = (await (await api("GET", "/v1/campaigns/unsubscribed")).json()) as {
      unsubscribed: Array<{ customer_id: string; method: string }>;
    };
    expect(list.unsubscribed.find((row) => row.customer_id === customerId)?.method).toBe("link");
    expect(errors).toEqual([]);
  });
});
