import { csrf } from "hono/csrf";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../env";

/**
 * Headers of the sign-in and invitation pages: a content security policy that allows no script
 * and no resource but this origin's stylesheet and icon, and forms posting only here; no framing; no
 * Referer carrying a token path elsewhere; nothing cached.
 */
const headers = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  referrerPolicy: "no-referrer",
  xFrameOptions: "DENY",
});

export const pageSecurity = createMiddleware<AppEnv>(async (c, next) => {
  await headers(c, next);
  c.header("Cache-Control", "no-store");
  c.header("X-Robots-Tag", "noindex");
});

/**
 * CSRF for the pages' forms: a browser's POST must come from this origin (the request's own, or
 * PUBLIC_BASE_URL behind a proxy). These forms run before any session exists, so an origin check
 * is what protects them (hono/csrf also accepts `Sec-Fetch-Site: same-origin`).
 */
export const formOrigin = createMiddleware<AppEnv>((c, next) =>
  csrf({
    origin: (origin) =>
      origin === new URL(c.req.url).origin || origin === new URL(c.env.PUBLIC_BASE_URL).origin,
  })(c, next),
);
