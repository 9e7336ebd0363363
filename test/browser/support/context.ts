/** What the browser tests' global setup hands the tests (through `inject`). */
export interface BrowserTestContext {
  /** The running Worker, `wrangler dev` of this checkout. */
  workerUrl: string;
  /** A one-time sign-in path (`/login/<token>`) of the seeded workspace's owner. */
  loginPath: string;
  ownerEmail: string;
  /** The Chromium to drive, or null when none is installed (the tests are skipped, loudly). */
  chromium: string | null;
}

declare module "vitest" {
  export interface ProvidedContext {
    browser: BrowserTestContext;
  }
}
