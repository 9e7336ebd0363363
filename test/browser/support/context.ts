/** What the browser tests' global setup hands the tests (through `inject`). */
export interface BrowserTestContext {
  /** The running Worker, `wrangler dev` of this checkout. */
  workerUrl: string;
  /** A one-time sign-in path (`/login/<token>`) of the seeded workspace's owner. */
  loginPath: string;
  ownerEmail: string;
  /** The seeded workspace's id and its admin API key. */
  accountId: string;
  apiKey: string;
  /**
   * Session tokens made at setup for the workspace's owner, an admin and an agent
   * (owner@, admin@, agent@example.com), so that tests sign in without spending sign-in links.
   */
  sessions: Record<"owner" | "admin" | "agent", string>;
  /** The Chromium to drive, or null when none is installed (the tests are skipped, loudly). */
  chromium: string | null;
  /**
   * The Playwright server of the one Chromium every browser test file connects to
   * (`connectChromium()` in `pages.ts`); empty when there is no Chromium.
   */
  browserEndpoint: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    browser: BrowserTestContext;
  }
}
