import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createDb, createSessionDb, type Db } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { homeOf, LEGACY_SHARD, shardOf } from "../db/directory/workspaces";
import { envFor, findInShards, shardD1 } from "../db/shards";
import type { AppEnv } from "../env";
import { isDashboardPath, keepBookmarkCookie, readsFromCookie } from "./bookmark-cookie";
import {
  BOOKMARK_HEADER,
  formatBookmark,
  type ReadsFrom,
  readsFromHeader,
  sentBookmark,
  sessionStart,
} from "./read-consistency";
import type { RequestContext } from "./request-context";
import { isAccountId, WORKSPACE_PARAM } from "./workspace-link";
import { isWriteMethod, workspaceMoving } from "./workspace-moving";

// Apart from request-context.ts: the context's type is part of AppEnv (env.ts), the middleware needs AppEnv.
/**
 * The D1 sessions of one request, one per shard it reads (a request normally reads one: its
 * workspace's), each made on first use: routes that touch no database (health, docs) make none.
 * Every one starts as the request asks (read-consistency.ts: a bookmark only on its own shard); the
 * bookmark the response carries is the one of the shard used last, the workspace's, named by it.
 */
class RequestSessions {
  readonly #sessions = new Map<string, { session: D1DatabaseSession; db: Db }>();
  #last: { shard: string; session: D1DatabaseSession } | undefined;

  constructor(
    private readonly env: Env,
    private readonly start: (shard: string) => D1SessionConstraint | D1SessionBookmark,
  ) {}

  db(shard: string): Db {
    let open = this.#sessions.get(shard);
    if (!open) {
      const session = shardD1(this.env, shard).withSession(this.start(shard));
      open = { session, db: createSessionDb(session) };
      this.#sessions.set(shard, open);
    }
    this.#last = { shard, session: open.session };
    return open.db;
  }

  /** The bookmark to answer with; none when no shard was read. */
  bookmark(): string | null {
    const bookmark = this.#last?.session.getBookmark();
    return this.#last && bookmark ? formatBookmark({ shard: this.#last.shard, bookmark }) : null;
  }
}

/** The request's context for the workspace `accountId` living in `shard`. */
function contextOn(
  c: Context<AppEnv>,
  sessions: RequestSessions,
  accountId: string,
  shard: string,
): RequestContext {
  return {
    get db() {
      return sessions.db(shard);
    },
    // Its DB is the workspace's shard, for what opens the binding itself (announcements, sends).
    env: envFor(c.env, shard),
    accountId,
    now: c.var.ctx?.now ?? Date.now(),
    defer: (work) => c.executionCtx.waitUntil(work),
  };
}

const sessionsOf = new WeakMap<Context<AppEnv>, RequestSessions>();

/**
 * Builds the request context. Registered after `authenticate`, so on /v1 routes it sees the
 * principal the key guard admitted, with its workspace's shard. A route that finds its workspace
 * itself (a session cookie, a public token) calls `enterWorkspace` once it knows it.
 *
 * Every request's queries run in a D1 session (read-consistency.ts): on the primary unless a
 * read sent a bookmark (/v1: `X-Service-Bookmark`; dashboard pages: their cookie). The session's
 * bookmark after the handler goes back the same way.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const api = c.req.path.startsWith("/v1/");
  const dashboard = !api && isDashboardPath(c.req.path);
  const reads: ReadsFrom = api
    ? readsFromHeader(c.req.header(BOOKMARK_HEADER))
    : dashboard
      ? readsFromCookie(c)
      : undefined;
  const sessions = new RequestSessions(c.env, (shard) => sessionStart(c.req.method, reads, shard));
  sessionsOf.set(c, sessions);
  const principal = c.get("principal");
  // The key guard names the shard its record was read from, which may be older than a move; the
  // directory (cached in the isolate for SHARD_CACHE_MS) has the last word, and knows a freeze.
  const home = principal ? await homeOf(directoryDb(c.env), principal.accountId) : null;
  if (home?.frozen && isWriteMethod(c.req.method)) throw workspaceMoving();
  c.set(
    "ctx",
    contextOn(c, sessions, principal?.accountId ?? "", home?.shard ?? principal?.shard ?? LEGACY_SHARD),
  );
  await next();
  // A session that never queried has no bookmark of its own: the one sent, if any, is still good.
  const bookmark = sessions.bookmark() ?? sentBookmark(reads);
  if (bookmark) giveBookmark(c, bookmark, { api, dashboard, reads });
});

/**
 * Makes `accountId` the request's workspace, its queries going to the workspace's shard as the
 * directory names it (from the isolate's cache when fresh); answers the new context, or null for a
 * workspace the directory does not know.
 */
export async function enterWorkspace(c: Context<AppEnv>, accountId: string): Promise<RequestContext | null> {
  const sessions = sessionsOf.get(c);
  if (!sessions) throw new Error("enterWorkspace ran before requestContext");
  const home = await homeOf(directoryDb(c.env), accountId);
  if (!home) return null;
  if (home.frozen && isWriteMethod(c.req.method)) throw workspaceMoving();
  const ctx = contextOn(c, sessions, accountId, home.shard);
  c.set("ctx", ctx);
  return ctx;
}

/** What a service is given to reach a workspace it found itself: the workspace's shard, or null. */
export type WorkspaceDbOf = (accountId: string) => Promise<Db | null>;

/** `enterWorkspace` for a service: entering the workspace it names, answering its shard. */
export const entering =
  (c: Context<AppEnv>): WorkspaceDbOf =>
  async (accountId) =>
    (await enterWorkspace(c, accountId))?.db ?? null;

/**
 * The shard of a workspace, leaving the request's own workspace as it is: for a request that
 * reaches several workspaces (POST /login sends a link in each the person belongs to). Null for a
 * workspace the directory does not know.
 */
export const reaching =
  (c: Context<AppEnv>): WorkspaceDbOf =>
  async (accountId) => {
    const sessions = sessionsOf.get(c);
    if (!sessions) throw new Error("reaching ran before requestContext");
    const shard = await shardOf(directoryDb(c.env), accountId);
    return shard ? sessions.db(shard) : null;
  };

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

/**
 * Enters the workspace of something a public link names: the workspace the link says (`named`,
 * links made since workspaces had shards carry it), else the one `locate` finds asking every shard
 * (older links; the id is unique in the service). Answers the entered context, or null when none
 * is found. A link naming the wrong workspace finds nothing there: its record is looked for by id
 * and workspace in that workspace's shard.
 */
export async function enterWorkspaceOf(
  c: Context<AppEnv>,
  named: string | undefined,
  locate: (db: Db) => Promise<string | null | undefined>,
): Promise<RequestContext | null> {
  if (named) return enterWorkspace(c, named);
  const located = await findInShards(c.env, (env) => locate(createDb(env.DB)));
  return located ? enterWorkspace(c, located.found) : null;
}

/**
 * `enterWorkspaceOf` for a public link: the workspace its `w` parameter names (workspace-link.ts),
 * else the one `locate` finds asking every shard. A `w` that is no account id finds nothing.
 */
export async function enterLinkWorkspace(
  c: Context<AppEnv>,
  locate: (db: Db) => Promise<string | null | undefined>,
): Promise<RequestContext | null> {
  const named = c.req.query(WORKSPACE_PARAM);
  if (named !== undefined && !isAccountId(named)) return null;
  return enterWorkspaceOf(c, named, locate);
}
