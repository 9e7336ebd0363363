import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The one failure type of the service. Handlers, services, queue consumers, cron jobs and the
 * key-guard Durable Object all throw it; `onError` turns it into the JSON body of product.md.
 */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    /** The human-readable `error` field. */
    readonly error: string,
    /** Optional longer explanation, sent as `message`. */
    readonly detail?: string,
    /** Context fields the spec names (`domain`, `help`, `current`, `limit`, ...). */
    readonly extras: Record<string, unknown> = {},
    /** Extra response headers such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ? `${error}: ${detail}` : error);
    this.name = "AppError";
  }
}

export const notFound = (what: string) =>
  new AppError(404, "not_found", "Not found", `${what} does not exist in this workspace.`);

export const invalidApiKey = (detail: string) =>
  new AppError(401, "invalid_api_key", "Invalid API key", detail);

export const badRequest = (code: string, error: string, detail?: string) =>
  new AppError(400, code, error, detail);

export const forbidden = (code: string, detail: string) => new AppError(403, code, "Forbidden", detail);

export const conflict = (code: string, error: string, detail?: string) =>
  new AppError(409, code, error, detail);

/**
 * A failure whose body is exactly `{ "error": ... }`: the spec fixes a few such answers (the
 * team-member limit's 429 has "only `error`"). `code` still reaches the request log.
 */
export class BareError extends AppError {}

export const teamMemberLimitReached = () =>
  new BareError(429, "team_member_limit", "Team member limit reached");
