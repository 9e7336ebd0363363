import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { Requirement } from "../auth/permissions";
import { requirePermission } from "../auth/require-permission";
import { bodyLimitFor } from "./body-limit";

export const ErrorSchema = z
  .object({
    error: z
      .string()
      .openapi({ description: "Human-readable summary. Read this first.", example: "Invalid API key" }),
    message: z.string().optional().openapi({ description: "A longer explanation." }),
    code: z.string().openapi({ description: "Stable snake_case machine code.", example: "invalid_api_key" }),
    request_id: z.string().openapi({ example: "req_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "Validation failures (400 only)." }),
  })
  .catchall(z.unknown())
  .openapi("Error", { description: "Every failure has this shape; some add context fields." });

/** A documented error answer, for the statuses a route adds to the shared ones (403, 409, 413...). */
export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

const AUTH_ERRORS = {
  401: errorResponse("Missing, malformed, unknown or revoked API key."),
  403: errorResponse("The key lacks the permission this operation needs, or the workspace is suspended."),
  429: {
    ...errorResponse("Rate limit exceeded: wait `Retry-After` seconds."),
    headers: z.object({ "Retry-After": z.string().openapi({ description: "Whole seconds to wait." }) }),
  },
};

export const RATE_LIMIT_HEADERS = z.object({
  "X-RateLimit-Limit": z.string().openapi({ description: "Requests this key may make in any 60 seconds." }),
  "X-RateLimit-Remaining": z
    .string()
    .openapi({ description: "Requests left in the current rolling window." }),
  "X-RateLimit-Reset": z
    .string()
    .openapi({ description: "Seconds until the oldest request leaves the window." }),
});

type RouteSpec = Omit<RouteConfig, "security" | "middleware">;

/** Every route with a body can answer 413 for its size; a route's own 413 is kept, then this one. */
function tooLargeResponse(spec: RouteSpec) {
  const limit = `The request body is over ${bodyLimitFor(spec.path) / 1024 / 1024} MB (\`request_too_large\`).`;
  const own = spec.responses[413];
  return errorResponse(own && "description" in own ? `${own.description} Or: ${limit}` : limit);
}

/**
 * `createRoute` plus what every operation shares: its permission (enforced by route middleware and
 * published as `x-permission`), the bearer scheme, and the error responses it can give.
 */
export function defineRoute<R extends RouteSpec>(requirement: Requirement, spec: R) {
  const isPublic = requirement === "public";
  return createRoute({
    ...spec,
    "x-permission": requirement,
    security: isPublic ? [] : [{ bearerAuth: [] }],
    middleware: isPublic ? [] : [requirePermission(requirement)],
    responses: sayingBoth(spec.responses, {
      ...spec.responses,
      ...(spec.request ? { 400: errorResponse("Missing or malformed parameters.") } : {}),
      ...(spec.request?.body ? { 413: tooLargeResponse(spec) } : {}),
      ...(isPublic ? {} : AUTH_ERRORS),
      ...(spec.path.includes("{") ? { 404: errorResponse("No such resource in this workspace.") } : {}),
      500: errorResponse("Internal error; idempotent requests are safe to retry."),
    }),
  });
}

type Responses = RouteSpec["responses"];

/**
 * The shared error answers replace a route's own entry for the same status; where the route had
 * its own (a 403 for an unverified domain beside the shared 403 for a missing permission), the
 * entry says both. (413 already folds the route's own text in.)
 */
function sayingBoth<T extends Responses>(own: Responses, all: T): T {
  const merged: Responses = { ...all };
  for (const [status, entry] of Object.entries(all)) {
    const mine = own[status];
    if (mine && mine !== entry && status !== "413" && "description" in mine && "description" in entry) {
      merged[status] = { ...entry, description: `${entry.description} Or: ${mine.description}` };
    }
  }
  return merged as T;
}

/** A JSON response entry for `responses`. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, headers: RATE_LIMIT_HEADERS, content: { "application/json": { schema } } };
}

/** A required JSON request body, as architecture.md asks of every body route. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } };
}

/**
 * A path parameter with a Hono pattern (`{id{cmp_[0-9A-Za-z]+}}`, so that a sibling static route
 * is never taken for an id) is published as the plain `{id}` of OpenAPI.
 */
export function withPlainPathParams<T extends { paths?: Record<string, unknown> }>(document: T): T {
  if (!document.paths) return document;
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path.replace(/\{(\w+)\{[^}]*\}\}/g, "{$1}"), item]),
  );
  return { ...document, paths };
}

/**
 * The same operation served at a second, older path that the document leaves out (a client
 * generator would otherwise see two operations, or an ambiguous template). The canonical route's
 * description names the alias.
 */
export function undocumentedAlias<R extends { path: string }>(route: R, path: string): R {
  return { ...route, path, hide: true };
}
