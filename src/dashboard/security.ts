import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv, Session } from "../env";
import { formOrigin } from "../features/sessions/page-security";
import { withSession } from "../features/sessions/session";
import { forbidden } from "../lib/errors";
import { workspaceSuspended } from "../lib/workspace-gate";
import { CSRF_FIELD, CSRF_HEADER, csrfTokenFor, isValidCsrfToken } from "../ui/csrf-token";

/**
 * The dashboard's headers: scripts, styles and requests only from this origin (htmx and the
 * dashboard's own script are static assets; nothing inline, nothing eval'd), forms posting only
 * here, no framing, no Referer, nothing cached.
 */
const headers = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  referrerPolicy: "no-referrer",
  xFrameOptions: "DENY",
});

const dashboardHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await headers(c, next);
  const policy = c.get("documentPolicy");
  if (policy) c.header("Content-Security-Policy", policy);
  c.header("Cache-Control", "no-store");
  c.header("X-Robots-Tag", "noindex");
});

/**
 * A signed-in person, or a redirect to /login; a suspended workspace's person gets the 403 page,
 * as its API keys do. `withSession` entered the session's workspace before its first shard query,
 * so the request's context is that workspace's: every service call below reads `ctx.accountId`
 * and `ctx.db` (its shard), exactly as an API key's would.
 */
const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  const session = c.var.session;
  if (!session) return c.redirect("/login", 303);
  if (!session.workspaceActive) throw workspaceSuspended();
  c.set("csrfToken", await csrfTokenFor(c.env.ENCRYPTION_KEY, session.tokenHash));
  await next();
});

/**
 * CSRF, twice over: hono/csrf refuses a form posted from another origin (`formOrigin`), and every
 * state-changing request must carry this session's token, in the form (`_csrf`) or, for htmx, the
 * `X-CSRF-Token` header. Only POST changes state in the dashboard.
 */
const csrfToken = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    const session = c.var.session as Session;
    const form = c.req.header("Content-Type")?.startsWith("application/x-www-form-urlencoded")
      ? await c.req.formData()
      : null;
    const given = c.req.header(CSRF_HEADER) ?? form?.get(CSRF_FIELD);
    const valid =
      typeof given === "string" && (await isValidCsrfToken(c.env.ENCRYPTION_KEY, session.tokenHash, given));
    if (!valid) {
      throw forbidden(
        "csrf_token_invalid",
        "The form is out of date or was not sent from the dashboard. Reload the page and try again.",
      );
    }
  }
  await next();
});

/** Everything under /dashboard: headers, origin check, session, workspace, CSRF token. */
export const dashboardSecurity = [dashboardHeaders, formOrigin, withSession, signedIn, csrfToken] as const;
