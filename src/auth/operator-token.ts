import type { Context } from "hono";
import type { AppEnv } from "../env";
import { constantTimeEqual } from "../lib/crypto";
import { AppError, notFound } from "../lib/errors";

/**
 * The operator routes (`/_ops/...`) answer only the deployment's OPS_TOKEN (constant time), and do
 * not exist (404) when it is unset.
 */
export function requireOperator(c: Context<AppEnv>) {
  const expected = c.env.OPS_TOKEN;
  if (!expected) throw notFound("This route");
  const given = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  if (!constantTimeEqual(given, expected)) {
    throw new AppError(
      401,
      "invalid_ops_token",
      "Invalid operator token",
      "Send `Authorization: Bearer <OPS_TOKEN>`.",
    );
  }
}
