import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectChromium, SCREENSHOTS } from "./support/pages";

const { workerUrl, loginPath, ownerEmail, chromium: executablePath } = inject("browser");

describe.skipIf(!executablePath)("sign-in pages in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh page that fails the test on any console error (a CSP refusal shows up there). */
  async function freshPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    return { page, errors };
  }

  /** The newest sign-in path mailed to `email`, read from the development mailbox. */
  async function latestLinkFor(email: string): Promise<string | undefined> {
    const mailbox = (await (await fetch(`${workerUrl}/_dev/mailbox.json`)).json()) as {
      data: Array<{ to: string[]; raw: string }>;
    };
    const mail = mailbox.data.find((m) => m.to.some((to) => to.includes(email)));
    // Quoted-printable soft line breaks may split the link.
    return /\/login\/[A-Za-z0-9_-]{43}/.exec(mail?.raw.replace(/=\r?\n/g, "") ?? "")?.[0];
  }

  it("signs the owner in with the printed link: the GET shows a button, its POST starts the session", async () => {
    const { page, errors } = await freshPage();
    const shown = await page.goto(`${workerUrl}${loginPath}`);
    expect(shown?.status()).toBe(200);
    expect(shown?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await page.screenshot({ path: join(SCREENSHOTS, "login-link.png"), fullPage: true });
    // Opening the link again (a mail scanner's GET) has used nothing up.
    expect((await page.reload())?.status()).toBe(200);

    await page.getByRole("button", { name: "Sign in" }).click();
    // Signed in, the dashboard opens.
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    expect(await page.textContent("body")).toContain(ownerEmail);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).toContain("session");
    expect(cookies.find((c) => c.name === "session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await page.screenshot({ path: join(SCREENSHOTS, "signed-in.png"), fullPage: true });

    // The link worked once.
    const again = await (await freshPage()).page.goto(`${workerUrl}${loginPath}`);
    expect(again?.status()).toBe(410);
    expect(errors).toEqual([]);
  });

  it("emails a new link from the /login form, and the same page answers for an unknown address", async () => {
    const { page, errors } = await freshPage();
    await page.goto(`${workerUrl}/login`);
    await page.screenshot({ path: join(SCREENSHOTS, "login.png"), fullPage: true });
    await page.getByLabel("Email").fill(ownerEmail);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Check your email" }).count()).toBe(1);
    const known = await page.textContent("main");

    await page.goto(`${workerUrl}/login`);
    await page.getByLabel("Email").fill("nobody-here@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Check your email" }).count()).toBe(1);
    expect(await page.textContent("main")).toBe(known);

    // The link arrives in the development mailbox, and signs in.
    let link: string | undefined;
    await expect.poll(async () => (link = await latestLinkFor(ownerEmail)), { timeout: 15_000 }).toBeTruthy();
    await page.goto(`${workerUrl}${link}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
