import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { constantTimeEqual } from "../../lib/crypto";
import { AppError, notFound } from "../../lib/errors";

/**
 * Guards the relay's own routes, before the body is even validated: 404 when RELAY_TOKEN is
 * unset (the routes do not exist), 401 unless the bearer token equals it (constant time).
 */
export const requireRelayToken = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.RELAY_TOKEN;
  if (!expected) throw notFound("This route");
  const given = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  if (!constantTimeEqual(given, expected)) {
    throw new AppError(
      401,
      "invalid_relay_token",
      "Invalid relay token",
      "Send `Authorization: Bearer <RELAY_TOKEN>`.",
    );
  }
  await next();
});
