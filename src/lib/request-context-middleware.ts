import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createSessionDb, type Db } from "../db/client";
import type { AppEnv } from "../env";
import { isDashboardPath, keepBookmarkCookie, readsFromCookie } from "./bookmark-cookie";
import { BOOKMARK_HEADER, type ReadsFrom, readsFromHeader, sessionStart } from "./read-consistency";

// Apart from request-context.ts: the context's type is part of AppEnv (env.ts), the middleware needs AppEnv.
/**
 * Builds the request context. Registered after `authenticate`, so on /v1 routes it sees the
 * principal the key guard admitted.
 *
 * Every request's queries run in one D1 session (read-consistency.ts): on the primary unless a
 * read sent a bookmark (/v1: `X-Service-Bookmark`; dashboard pages: their cookie). The session's
 * bookmark after the handler goes back the same way.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const env = c.env;
  const api = c.req.path.startsWith("/v1/");
  const dashboard = !api && isDashboardPath(c.req.path);
  const reads: ReadsFrom = api
    ? readsFromHeader(c.req.header(BOOKMARK_HEADER))
    : dashboard
      ? readsFromCookie(c)
      : undefined;
  let session: D1DatabaseSession | undefined;
  let db: Db | undefined;
  c.set("ctx", {
    // Made on first use: routes that touch no database (health, docs) never ask for it.
    get db() {
      if (!db) {
        session = env.DB.withSession(sessionStart(c.req.method, reads));
        db = createSessionDb(session);
      }
      return db;
    },
    env,
    accountId: c.get("principal")?.accountId ?? "",
    now: Date.now(),
    defer: (work) => c.executionCtx.waitUntil(work),
  });
  await next();
  // A session that never queried has no bookmark of its own: the one sent, if any, is still good.
  const bookmark = session?.getBookmark() ?? (reads === "first-unconstrained" ? undefined : reads);
  if (bookmark) giveBookmark(c, bookmark, { api, dashboard, reads });
});

function giveBookmark(
  c: Context<AppEnv>,
  bookmark: string,
  where: { api: boolean; dashboard: boolean; reads: ReadsFrom },
) {
  if (where.api) setAfterHandler(c, BOOKMARK_HEADER, bookmark);
  else if (where.dashboard) keepBookmarkCookie(c, bookmark, where.reads);
}

/**
 * Hono's c.header() after the handler copies the whole response to change it. A response this
 * Worker built has mutable headers, so the header goes on in place; only a response taken from
 * elsewhere (immutable headers, a fetch's) is copied.
 */
function setAfterHandler(c: Context<AppEnv>, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
