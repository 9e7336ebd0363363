import { expect } from "vitest";

/**
 * The portal's page headers: no script at all, no inline style, only this origin's stylesheet;
 * forms post only here; no framing, no Referer, nothing cached or indexed.
 */
export function expectPageHeaders(res: Response) {
  expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
  expect(res.headers.get("Content-Security-Policy")).toBe(
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
  expect(res.headers.get("Cache-Control")).toBe("no-store");
  expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
}
