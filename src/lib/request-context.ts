import { createMiddleware } from "hono/factory";
import { createDb, type Db } from "../db/client";
import type { AppEnv } from "../env";
import { describeError, log } from "./logger";

/** Keeps work alive after the response (`executionCtx.waitUntil`), where a request has one. */
export type Defer = (work: Promise<unknown>) => void;

/**
 * Runs follow-up work after the response when the caller can defer it, else awaits it. A failure
 * is logged as `event` with `fields`, never thrown: the change that asked for the work is stored.
 */
export async function afterResponse(
  defer: Defer | undefined,
  event: string,
  fields: Record<string, string>,
  work: () => Promise<unknown>,
): Promise<void> {
  const guarded = work().catch((error: unknown) => log.error(event, { ...fields, ...describeError(error) }));
  if (defer) defer(guarded);
  else await guarded;
}

/** What every service call of a request is given: built once, by `requestContext`, on `c.var.ctx`. */
export interface RequestContext {
  db: Db;
  env: Env;
  /**
   * The authenticated caller's workspace. Routes without an API key (portal, tracking, operator
   * and relay routes) have none: it is "", which matches no row, so a mistaken use finds nothing.
   */
  accountId: string;
  /** One clock reading for the whole request, so every row it writes agrees on the time. */
  now: number;
  defer: Defer;
}

/**
 * Builds the request context. Registered after `authenticate`, so on /v1 routes it sees the
 * principal the key guard admitted.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const env = c.env;
  c.set("ctx", {
    // Made on first use: routes that touch no database (health, docs) never ask for it.
    get db() {
      return createDb(env.DB);
    },
    env,
    accountId: c.get("principal")?.accountId ?? "",
    now: Date.now(),
    defer: (work) => c.executionCtx.waitUntil(work),
  });
  await next();
});
