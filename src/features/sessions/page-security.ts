import { csrf } from "hono/csrf";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../../env";
import { forbidden } from "../../lib/errors";

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
export const formOrigin = createMiddleware<AppEnv>(async (c, next) => {
  const check = csrf({
    origin: (origin) =>
      origin === new URL(c.req.url).origin || origin === new URL(c.env.PUBLIC_BASE_URL).origin,
  });
  try {
    await check(c, next);
  } catch (error) {
    // hono/csrf refuses with a bare 403; say why, so the page a person sees is readable.
    if (error instanceof HTTPException && error.status === 403) {
      throw forbidden(
        "cross_origin_form",
        "This form was sent from another site, so it was refused. Open the page on this site and send it from there.",
      );
    }
    throw error;
  }
});
