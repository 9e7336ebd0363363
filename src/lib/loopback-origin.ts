import type { Context } from "hono";
import { environmentOf } from "../env";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A development request on a plain-http loopback origin. Browsers drop Secure cookies on plain
 * http, so the dashboard's cookies go without Secure (and without a `__Host-`/`__Secure-` prefix) there.
 */
export function plainLocalOrigin(c: Context): boolean {
  const url = new URL(c.req.url);
  return (
    environmentOf(c.env as Env) === "development" && url.protocol === "http:" && LOOPBACK.has(url.hostname)
  );
}
