import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { type Permission, permits } from "./permissions";

/** Route middleware: the authenticated key must hold at least `needed`. */
export const requirePermission = (needed: Permission) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get("principal");
    if (!principal) throw new Error("requirePermission ran before authenticate");
    if (!permits(principal.permission, needed)) {
      throw new AppError(
        403,
        "insufficient_permission",
        "Forbidden",
        `This operation needs a key with ${needed} permission; this key has ${principal.permission}.`,
      );
    }
    await next();
  });
