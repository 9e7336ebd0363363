import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError } from "./errors";

const MB = 1024 * 1024;

/**
 * Routes that carry attachments or whole messages: a 25 MB message is 33.4 MB as base64, plus its
 * bodies and recipients. The relay's log batches (100 sessions of up to 1,000 recipients) too.
 */
export const LARGE_BODY_BYTES = 40 * MB;

/**
 * Every other route. Its largest body, a ticket with a first message (two bodies of 750,000
 * bytes and 16 KB of metadata), is about 1.5 MB; twice that leaves room for clients that escape
 * non-ASCII text as \uXXXX. Anything bigger is refused before it is read.
 */
export const DEFAULT_BODY_BYTES = 4 * MB;

/** Paths as requested or as OpenAPI templates (`{id}` matches a segment too). */
const LARGE_BODY_PATHS = [
  /^\/v1\/emails(?:\/batch|\/raw)?$/,
  /^\/v1\/tickets\/compose$/,
  /^\/v1\/tickets\/[^/]+\/messages$/,
  /^\/_relay\/smtp-logs$/,
];

const isLarge = (path: string) => LARGE_BODY_PATHS.some((pattern) => pattern.test(path));

export const bodyLimitFor = (path: string) => (isLarge(path) ? LARGE_BODY_BYTES : DEFAULT_BODY_BYTES);

const limiterOf = (limit: number) =>
  bodyLimit({
    maxSize: limit,
    onError: () => {
      throw new AppError(
        413,
        "request_too_large",
        "Request body too large",
        `The request body is over ${limit} bytes (${limit / MB} MB), the most this route takes.`,
        { limit },
      );
    },
  });

const large = limiterOf(LARGE_BODY_BYTES);
const ordinary = limiterOf(DEFAULT_BODY_BYTES);

/** Hono's body limit with the limit of the request's route family, answering our JSON 413. */
export const requestBodyLimit = createMiddleware<AppEnv>((c, next) =>
  // Most requests (every GET) carry no body: nothing to limit, no path patterns to try.
  c.req.raw.body === null ? next() : (isLarge(c.req.path) ? large : ordinary)(c, next),
);
