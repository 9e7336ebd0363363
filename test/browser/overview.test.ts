import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountId, api, connectChromium, screenshot, workerUrl } from "./support/pages";

const TIME_ZONE = "Asia/Tokyo";
const { sessions, chromium } = inject("browser");

/** What app.js makes of an instant: the browser's medium date and short time, in its own zone. */
const localRendering = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE })
    .format(new Date(iso))
    .replace(/\s/g, " ");

async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await api("POST", path, body);
  expect(response.status, `POST ${path}`).toBe(201);
  return (await response.json()) as T;
}

describe.skipIf(!chromium)("the Overview in a real Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows each quota with a bar and the newest events, in the viewer's own time zone", async () => {
    const suffix = randomBytes(4).toString("hex");
    const inbox = await postJson<{ id: string }>("/v1/inboxes", {
      name: `Overview ${suffix}`,
      email_address: `overview-${suffix}@example.com`,
    });
    await postJson("/v1/tickets", {
      inbox_id: inbox.id,
      subject: `Overview ticket ${suffix}`,
      customer: { email: `overview-${suffix}@customer.example` },
    });
    const events = (await (
      await api("GET", `/v1/accounts/${accountId}/events?inbox_id=${inbox.id}&event=ticket.created`)
    ).json()) as { data: Array<{ id: string; created_at: string }> };
    const created = events.data[0];
    expect(created).toBeDefined();

    // A Tokyo browser in English, signed in as the owner.
    const context = await browser.newContext({ timezoneId: TIME_ZONE, locale: "en-US" });
    await context.addCookies([
      { name: "session", value: sessions.owner, url: workerUrl, httpOnly: true, sameSite: "Lax" },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    expect((await page.goto(`${workerUrl}/dashboard`))?.status()).toBe(200);

    const usage = page.getByRole("heading", { name: /^Usage on the enterprise plan/ });
    expect(await usage.count()).toBe(1);
    for (const quota of [
      "Emails this month",
      "Emails today",
      "Emails this hour",
      "Storage",
      "Team members",
    ]) {
      expect(await page.getByRole("meter", { name: quota }).count(), quota).toBe(1);
    }

    const activity = page.locator("section", { has: page.getByRole("heading", { name: "Recent activity" }) });
    const link = page.locator(`a[href="/dashboard/events/${created?.id}"]`);
    expect(await activity.locator(link).textContent()).toBe("ticket.created");
    const time = activity.getByRole("row").filter({ has: link }).locator("time");
    await expect.poll(() => time.getAttribute("data-localized")).toBe("1");
    const shown = ((await time.textContent()) ?? "").replace(/\s/g, " ");
    expect(shown).toBe(localRendering(created?.created_at ?? ""));
    expect(shown).not.toContain("UTC");
    expect(await time.getAttribute("title")).toBe(await time.getAttribute("datetime"));
    await screenshot(page, "overview");
    expect(errors).toEqual([]);
    await context.close();
  });
});
