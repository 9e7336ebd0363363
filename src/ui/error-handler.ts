import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { routePath } from "hono/route";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { AppError, BareError } from "../lib/errors";
import { describeError, log } from "../lib/logger";
import { renderDashboardError } from "./dashboard-error-page";
import { isPortalPath, renderPortalError } from "./public-error-page";

function respond(c: Context<AppEnv>, error: AppError) {
  c.set("errorCode", error.code);
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  if (isDashboardPath(c.req.path)) return renderDashboardError(c, error);
  if (isPortalPath(c.req.path)) return renderPortalError(c, error);
  if (error instanceof BareError) return c.json({ error: error.error }, error.status);
  const body = {
    error: error.error,
    ...(error.detail ? { message: error.detail } : {}),
    code: error.code,
    request_id: c.get("requestId"),
    ...error.extras,
  };
  return c.json(body, error.status);
}

const isDashboardPath = (path: string) => path === "/dashboard" || path.startsWith("/dashboard/");

/** Hono's own exceptions (a body that is not JSON, for instance) keep their status. */
function fromHttpException(exception: HTTPException): AppError {
  const status = exception.status as ContentfulStatusCode;
  if (status === 400) {
    return new AppError(
      400,
      "malformed_request",
      "Invalid request",
      exception.message || "The request is malformed.",
    );
  }
  return new AppError(status, "http_error", exception.message || "Request failed");
}

/** The one `onError`: AppError becomes its body; anything else is logged and answered as a bare 500. */
export function handleError(error: unknown, c: Context<AppEnv>) {
  if (error instanceof AppError) return respond(c, error);
  if (error instanceof HTTPException) return respond(c, fromHttpException(error));
  log.error("request.unhandled_error", {
    request_id: c.get("requestId"),
    // The route's pattern, not the path: paths carry tokens (/login/{token}, /invitations/{token}).
    path: routePath(c),
    ...describeError(error),
  });
  return respond(
    c,
    new AppError(
      500,
      "internal_error",
      "Internal server error",
      "Something went wrong on our side; it has been logged.",
    ),
  );
}
