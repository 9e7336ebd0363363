import { OpenAPIHono } from "@hono/zod-openapi";
import type { Router } from "hono/router";
import type { H, RouterRoute } from "hono/types";
import type { AppEnv } from "../env";
import { AppError } from "./errors";

/** Turns any zod validation failure into the 400 body, with one entry per problem. */
export function validationError(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  target?: string,
): AppError {
  // Hono calls the body target "json"; clients know it as the body.
  const location = target === "json" ? "body" : target;
  const details = issues.map((issue) => ({
    path: [location, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
  const summary = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ");
  return new AppError(400, "validation_error", "Invalid request", summary, { details });
}

/**
 * Every feature router is made here so that all share the same validation hook. Only the app
 * itself matches requests, so only it takes a `router` (app.ts: StaticRouteCache).
 */
export function createRouter(router?: Router<[H, RouterRoute]>) {
  return new OpenAPIHono<AppEnv>({
    ...(router ? { router } : {}),
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues, result.target);
    },
  });
}

/**
 * Mounts a feature router at `path`. Typed as plain routers on purpose: a router built by chaining
 * `.openapi()` carries every route's schema in its type, and Hono's generic `route()` then infers
 * and compares that schema structurally against `Hono` (OpenAPIHono is a subclass), which cost
 * the type check tens of seconds per mount. Nothing reads the merged schema type (no RPC client).
 */
export function mount(parent: OpenAPIHono<AppEnv>, path: string, child: OpenAPIHono<AppEnv>): void {
  parent.route(path, child);
}
