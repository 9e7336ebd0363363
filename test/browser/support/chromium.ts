import { existsSync } from "node:fs";

/** Where a Chromium is found: `CHROMIUM_PATH`, else Debian's and other usual places. */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export const SKIPPED_LINE =
  "BROWSER TESTS SKIPPED: no Chromium found. Install Debian's `chromium` (apt-get install chromium) or set CHROMIUM_PATH; `.ci/run` installs it when missing.";
