import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../lib/openapi";

export const htmlPage = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});

const tags = ["Sign-in"];

/** The page routes answer HTML, never the JSON 400 and 404 `defineRoute` documents. */
export function page<R extends Parameters<typeof defineRoute>[1]>(spec: R) {
  const route = defineRoute("public", spec);
  const { 400: _bad, 404: _missing, ...responses } = route.responses as Record<number, unknown>;
  return { ...route, responses: { ...responses, ...spec.responses } } as typeof route;
}

export const TokenParamsSchema = z.object({
  token: z
    .string()
    .openapi({ param: { name: "token", in: "path" }, description: "The link's one-time token." }),
});

export const formBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema } },
});

export const LoginFormSchema = z.object({ email: z.string().max(1000).optional() });

export const loginPageRoute = page({
  method: "get",
  path: "/login",
  tags,
  summary: "Sign-in page",
  description:
    "Asks for an email to send a one-time sign-in link to; when a session cookie is present, shows who is signed in and a sign-out button. Server-rendered HTML with a content security policy that allows no script.",
  responses: { 200: htmlPage("The page.") },
});

export const requestLinkRoute = page({
  method: "post",
  path: "/login",
  tags,
  summary: "Email a sign-in link",
  description:
    "Form post (same origin only). Emails a link to `/login/{token}` (one use, 15 minutes; only its SHA-256 is stored) to every active user with this email, one per workspace that is not suspended, through the service's own pipeline from SYSTEM_FROM; the email shows in the workspace's GET /v1/emails with its body redacted. The answer is the same page whether or not the email belongs to a user, and the mail is prepared after the answer, so its timing does not tell either. At most 5 requests per email and 30 sign-in attempts per IP in 15 minutes (429 page).",
  request: { body: formBody(LoginFormSchema) },
  responses: {
    200: htmlPage("Check your email (the same page for every address)."),
    400: htmlPage("Not an email address."),
    403: htmlPage("The form was posted from another origin."),
    429: htmlPage("Too many sign-in attempts for this email or from this IP."),
  },
});

export const linkPageRoute = page({
  method: "get",
  path: "/login/{token}",
  tags,
  summary: "Sign-in link",
  description:
    "Shows a Sign in button for a usable link; opening it (a mail scanner's prefetch too) consumes nothing. A used, expired or unknown link, or a disabled user's, answers 410.",
  request: { params: TokenParamsSchema },
  responses: { 200: htmlPage("The Sign in button."), 410: htmlPage("The link cannot be used.") },
});

export const useLinkRoute = page({
  method: "post",
  path: "/login/{token}",
  tags,
  summary: "Sign in with a link",
  description:
    "Form post (same origin only). Uses the link up (once, even under concurrent posts) and starts a 14-day session: a random token in the `__Host-session` cookie (Secure, HttpOnly, SameSite=Lax, Path=/; named `session` without Secure on plain-http loopback in development), its SHA-256 stored; `last_login_at` is updated. Redirects (303) to /dashboard. Session cookies never authenticate /v1.",
  request: { params: TokenParamsSchema },
  responses: {
    303: { description: "Signed in; the cookie is set." },
    403: htmlPage("The form was posted from another origin."),
    410: htmlPage("The link is used, expired or unknown."),
    429: htmlPage("Too many sign-in attempts from this IP."),
  },
});

export const logoutRoute = page({
  method: "post",
  path: "/logout",
  tags,
  summary: "Sign out",
  description:
    "Form post (same origin only). Ends the session (its row is deleted) and clears the cookie; redirects (303) to /login.",
  responses: {
    303: { description: "Signed out." },
    403: htmlPage("The form was posted from another origin."),
  },
});
