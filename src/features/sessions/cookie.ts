import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { plainLocalOrigin } from "../../lib/loopback-origin";

export const SESSION_TTL_MS = 14 * 86_400_000;

/**
 * `__Host-session` (Secure, Path=/, no Domain: the browser binds it to this host). Browsers drop
 * Secure cookies on plain http, so in development on a loopback http origin it is `session`
 * without Secure.
 */
function cookieShape(c: Context) {
  return plainLocalOrigin(c) ? { name: "session", secure: false } : { name: "__Host-session", secure: true };
}

export function readSessionToken(c: Context): string | undefined {
  return getCookie(c, cookieShape(c).name);
}

export function setSessionCookie(c: Context, token: string, expiresAt: number) {
  const { name, secure } = cookieShape(c);
  setCookie(c, name, token, {
    path: "/",
    secure,
    httpOnly: true,
    sameSite: "Lax",
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(c: Context) {
  const { name, secure } = cookieShape(c);
  deleteCookie(c, name, { path: "/", secure, httpOnly: true, sameSite: "Lax" });
}
