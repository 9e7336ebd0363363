import type { Context } from "hono";
import type { AppEnv } from "../env";
import { AppError } from "./errors";

interface RouteLike {
  method: string;
  path: string;
}

const toPattern = (path: string) =>
  new RegExp(
    `^${path
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/:[A-Za-z0-9_]+/g, "[^/]+")
      .replace(/\*/g, ".*")}$`,
  );

/**
 * The `notFound` handler: a path some route serves with other methods is a 405 with `Allow`;
 * anything else is a JSON 404.
 */
export function notFoundOrMethodNotAllowed(routes: readonly RouteLike[]) {
  let compiled: Array<{ method: string; pattern: RegExp }> | null = null;
  return (c: Context<AppEnv>) => {
    compiled ??= routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, pattern: toPattern(r.path) }));
    const allowed = [...new Set(compiled.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))];
    if (allowed.length > 0) {
      if (allowed.includes("GET")) allowed.push("HEAD");
      throw new AppError(
        405,
        "method_not_allowed",
        "Method not allowed",
        `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(", ")}.`,
        {},
        { Allow: allowed.join(", ") },
      );
    }
    throw new AppError(
      404,
      "route_not_found",
      "Not found",
      `No route matches ${c.req.method} ${c.req.path}.`,
    );
  };
}
