import { createHmac } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { WebhookReceiver } from "../support/webhook-receiver";
import { connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

describe.skipIf(!inject("browser").chromium)("the Webhooks pages in a real Chromium", () => {
  let browser: Browser;
  const receiver = new WebhookReceiver();
  let receiverUrl: string;

  beforeAll(async () => {
    browser = await connectChromium();
    receiverUrl = await receiver.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver.close();
  });

  it("adds an endpoint, shows its secret, sends a test event, lists the delivery and resends it", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const hookPath = `/${crypto.randomUUID()}/ok`;
    const hookUrl = `${receiverUrl}${hookPath}`;
    // Only the test event (and its resend) is this test's, whatever else the workspace makes.
    const mine = () =>
      receiver.received.filter((r) => r.path === hookPath && r.headers["x-webhook-event"] === "webhook.test");

    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    const add = page.getByRole("form", { name: "Add a webhook" });
    await add.getByLabel("URL").fill(hookUrl);
    // Events no other browser file makes: they share this workspace, and its deliveries would
    // come here too (and into the deliveries listed below).
    await add.getByLabel("email.complained").check();
    await add.getByLabel("email.delivery_delayed").check();
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Webhook added.");
    expect(await page.content()).not.toContain("whsec_");

    // The secret only on request, swapped in place by htmx.
    await page.getByRole("button", { name: "Show secret" }).click();
    const secret = (await page.locator("code.secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    await page.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe("Test event sent; its delivery appears below.");
    // Each arrival's id and time (in the message), so that a duplicate shows whether it was one event sent twice.
    const arrivals = () => mine().map((r) => `${r.headers["x-webhook-id"]} at ${r.receivedAt}`);
    await expect.poll(() => arrivals().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(arrivals(), arrivals().join("; ")).toHaveLength(1);
    const [first] = mine();
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(first?.headers["x-service-signature"] ?? "") ?? [];
    expect(createHmac("sha256", secret).update(`${t}.${first?.body}`).digest("hex")).toBe(v1);
    const eventId = first?.headers["x-webhook-id"] ?? "";

    // The attempt is recorded just after the receiver answered: reload until it is listed.
    const deliveries = page.getByRole("region", { name: "Recent deliveries" });
    await expect
      .poll(
        async () => {
          await page.reload();
          return deliveries.getByRole("row").count();
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    const row = deliveries.getByRole("row").nth(1);
    expect(await row.getByText("webhook.test", { exact: true }).count()).toBe(1);
    expect(await row.getByText(eventId, { exact: true }).count()).toBe(1);
    expect(await row.getByText("200", { exact: true }).count()).toBe(1);
    await row.getByText("Payload", { exact: true }).click();
    expect(await row.locator("pre.payload").textContent()).toBe(first?.body);
    await screenshot(page, "webhook");

    await row.getByRole("button", { name: "Resend" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe("Delivery queued again with the same event id; its attempt appears below.");
    await expect.poll(() => arrivals().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(arrivals(), arrivals().join("; ")).toHaveLength(2);
    expect(mine()[1]?.headers["x-webhook-id"]).toBe(eventId);
    expect(mine()[1]?.body).toBe(first?.body);
    expect(errors).toEqual([]);
  });
});
