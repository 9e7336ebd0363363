import { existsSync } from "node:fs";

/**
 * Where a Chromium is found: `CHROMIUM_PATH`, else Debian's and other usual places. Debian's
 * `chromium-headless-shell` comes first: the same Chromium (Blink, V8) built as the headless shell,
 * which is what Playwright itself drives for headless tests. Full Chromium in its new headless mode
 * runs the browser tests on about three times the CPU (47 against 16 CPU-seconds for four files,
 * 2026-11-30), and this suite runs on two cores; without the shell, `chromium` drives them.
 */
const CANDIDATES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export const SKIPPED_LINE =
  "BROWSER TESTS SKIPPED: no Chromium found. Install Debian's `chromium-headless-shell` or `chromium` (apt-get install chromium-headless-shell) or set CHROMIUM_PATH; `.ci/run` installs it when missing.";
