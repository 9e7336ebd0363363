import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError, invalidApiKey } from "../lib/errors";
import { workspaceSuspended } from "../lib/workspace-gate";
import { keyLeases } from "./key-leases";
import { bearerToken, hashToken, tokenForm } from "./token";
import { recentlyUnknownTokens } from "./unknown-tokens";
import type { Verdict } from "./verdict";

const UNKNOWN_KEY = "The API key is unknown or has been revoked.";

/**
 * Authenticates the bearer key and applies its rate limit through the key's guard: one call per
 * request, or one per lease for a busy key (key-leases.ts). A
 * missing or malformed token, or one whose checksum fails, is refused here, before any Durable
 * Object or D1 work; so is an old-form token (no checksum) the guard found unknown within the
 * last minute (unknown-tokens.ts).
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) {
    throw invalidApiKey(
      c.req.header("Authorization")
        ? "The Authorization header must be `Bearer sk_...` with a well-formed API key."
        : "Send your API key as `Authorization: Bearer sk_...`.",
    );
  }
  const form = tokenForm(token);
  if (form === "corrupt") throw invalidApiKey(UNKNOWN_KEY);
  const tokenHash = await hashToken(token);
  if (form === "old" && recentlyUnknownTokens.has(tokenHash)) throw invalidApiKey(UNKNOWN_KEY);
  const verdict: Verdict = await keyLeases.admit(tokenHash, (want, unspent) =>
    c.env.KEY_GUARD.get(c.env.KEY_GUARD.idFromName(tokenHash)).admit(tokenHash, want, unspent),
  );

  if (verdict.kind === "invalid") {
    if (form === "old") recentlyUnknownTokens.add(tokenHash);
    throw invalidApiKey(UNKNOWN_KEY);
  }
  c.set("principal", verdict.principal);
  if (verdict.kind === "suspended") throw workspaceSuspended();

  c.header("X-RateLimit-Limit", String(verdict.limit));
  c.header("X-RateLimit-Remaining", String(verdict.remaining));
  c.header("X-RateLimit-Reset", String(verdict.resetSeconds));
  if (verdict.kind === "limited") {
    throw new AppError(
      429,
      "rate_limit_exceeded",
      "Rate limit exceeded",
      `This key may make ${verdict.limit} requests in any 60 seconds. Retry after ${verdict.resetSeconds} seconds.`,
      {},
      { "Retry-After": String(verdict.resetSeconds) },
    );
  }
  await next();
});
