import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { RequestLogBuffer } from "./log-buffer";
import type { RequestLogMessage } from "./request-logs.schemas";

/**
 * Records every /v1 request that can be attributed to a workspace. The record is handed to a
 * Queue with `waitUntil`, after the response is built, so logging never delays a response; the
 * consumer inserts whole batches. (This message carries the record itself, not an id: there is
 * no stored row to point at yet.)
 */
const buffer = new RequestLogBuffer();

export const recordRequest = createMiddleware<AppEnv>(async (c, next) => {
  const startedAt = Date.now();
  await next();
  const principal = c.get("principal");
  if (!principal) return;
  const record: RequestLogMessage = {
    id: c.get("requestId"),
    account_id: principal.accountId,
    key_id: principal.keyId,
    key_prefix: principal.keyPrefix,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    duration_ms: Date.now() - startedAt,
    ip: c.req.header("CF-Connecting-IP") ?? null,
    user_agent: c.req.header("User-Agent")?.slice(0, 512) ?? null,
    error_code: c.get("errorCode") ?? null,
    created_at: startedAt,
  };
  const pending = buffer.add(c.env.REQUEST_LOG_QUEUE, record);
  if (pending) c.executionCtx.waitUntil(pending);
});
