import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { plainLocalOrigin } from "./loopback-origin";
import { parseBookmark, type ReadsFrom, sentBookmark } from "./read-consistency";

/** The dashboard's pages: their reads follow the signed-in browser's latest bookmark. */
export const DASHBOARD_PATH = "/dashboard";

export const isDashboardPath = (path: string) =>
  path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);

/**
 * The dashboard keeps its session's latest D1 bookmark in a cookie of its own rather than on the
 * session row: the row is read every page from the database the bookmark points into, and writing
 * the bookmark back would cost a round trip after every change. The value is not secret, nor
 * signed: it is what /v1 hands any API client in a header, and a browser can send no more than an
 * API client can. Scoped to the dashboard's pages, which alone read it. It holds the header's
 * named form and follows its rules (read-consistency.ts): a cookie left from a workspace on another
 * shard starts the page on the primary, never from a position in another database, and one from
 * before bookmarks were named counts as DB's.
 */
function cookieShape(c: Context) {
  return plainLocalOrigin(c)
    ? { name: "bookmark", secure: false }
    : { name: "__Secure-bookmark", secure: true };
}

/** Where this dashboard request may read from; a cookie of any other shape is ignored (the primary). */
export function readsFromCookie(c: Context): ReadsFrom {
  const value = getCookie(c, cookieShape(c).name);
  return value === undefined ? undefined : (parseBookmark(value) ?? undefined);
}

/** Keeps `bookmark` for the next page, when it is not what the browser sent already. */
export function keepBookmarkCookie(c: Context, bookmark: string, sent: ReadsFrom) {
  if (bookmark === sentBookmark(sent)) return;
  const { name, secure } = cookieShape(c);
  // A browser session's cookie: a bookmark only ever matters for the pages that follow soon.
  setCookie(c, name, bookmark, { path: DASHBOARD_PATH, secure, httpOnly: true, sameSite: "Lax" });
}
