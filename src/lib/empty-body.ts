import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/**
 * An empty body is no body, whatever Content-Type a client put on it: `curl -X POST -H
 * 'Content-Type: application/json' .../send` and SDKs that always send the header work on routes
 * whose body is optional (validated as `{}`), and a required body reports its missing fields
 * rather than "Malformed JSON". The header is dropped from the request before any validator runs.
 */
export const emptyBodyIsNoBody = createMiddleware<AppEnv>(async (c, next) => {
  const raw = c.req.raw;
  if (raw.headers.has("Content-Type") && (raw.body === null || raw.headers.get("Content-Length") === "0")) {
    const headers = new Headers(raw.headers);
    headers.delete("Content-Type");
    c.req.raw = new Request(raw, { headers });
  }
  await next();
});
