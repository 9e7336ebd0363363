import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";

// Apart from request-context.ts: the context's type is part of AppEnv (env.ts), the middleware needs AppEnv.
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
