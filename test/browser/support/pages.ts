import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import "./context";

const context = inject("browser");
export const { workerUrl, accountId, apiKey } = context;
export const SCREENSHOTS = join(import.meta.dirname, "..", "screenshots");

/**
 * This file's connection to the run's one Chromium (started by the global setup). Its contexts and
 * pages are this file's alone; `browser.close()` closes them and the connection, not the Chromium.
 */
export async function connectChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.connect(context.browserEndpoint);
}

/**
 * A fresh page signed in as the seeded owner, admin or agent (their setup-made session cookie), that
 * records console errors (a content-security-policy refusal shows up there) and accepts the
 * dashboard's confirmation dialogs.
 */
export async function signedInPage(
  browser: Browser,
  role: "owner" | "admin" | "agent",
): Promise<{ page: Page; errors: string[]; browserContext: BrowserContext }> {
  const browserContext = await browser.newContext();
  await browserContext.addCookies([
    { name: "session", value: context.sessions[role], url: workerUrl, httpOnly: true, sameSite: "Lax" },
  ]);
  const page = await browserContext.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => void dialog.accept());
  return { page, errors, browserContext };
}

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** A call to the API with the seeded workspace's admin key. */
export async function api(method: string, path: string, body?: unknown, token = apiKey): Promise<Response> {
  return fetch(`${workerUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : null,
  });
}
