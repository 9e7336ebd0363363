import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** Distinct paths kept; a path beyond them costs what it cost before (least recently used go). */
const MAX_PATHS = 256;
/** Longer paths are never kept, so that what is kept stays small (256 × 200 characters at most). */
const MAX_PATH_LENGTH = 200;

/**
 * Hono's default router, remembering the match of every path that has no parameter.
 *
 * The spec's paths put static segments beside parameters (`/v1/emails/suppressions` next to
 * `/v1/emails/{id}`), which RegExpRouter refuses, so hono falls back to TrieRouter: it walks the
 * trie of ~900 routes and merges every middleware on the way for each request. Under the
 * api-baseline load that walk was 6% of the isolate's time for `GET /v1/accounts`. A path whose
 * match binds no parameter (`/v1/accounts`, `/v1/tickets`, `/health`) always matches the same
 * handlers, so its answer is kept. A path with an id binds a parameter and is matched afresh each
 * time, so ids never fill the cache; unknown paths may, and only push out the least recently used.
 * Hono reads a match result and never changes it (RegExpRouter already shares its static ones).
 */
export class StaticRouteCache<T> implements Router<T> {
  readonly name: string;
  readonly #inner: Router<T>;
  readonly #matches = new Map<string, Result<T>>();

  constructor(inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] })) {
    this.#inner = inner;
    this.name = `StaticRouteCache(${inner.name})`;
  }

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_PATH_LENGTH) return this.#inner.match(method, path);
    const key = `${method} ${path}`;
    const kept = this.#matches.get(key);
    if (kept) {
      // Most recently used last, so the oldest is the first to go.
      this.#matches.delete(key);
      this.#matches.set(key, kept);
      return kept;
    }
    const result = this.#inner.match(method, path);
    if (bindsNoParameter(result)) {
      if (this.#matches.size >= MAX_PATHS) this.#matches.delete(this.#matches.keys().next().value as string);
      this.#matches.set(key, result);
    }
    return result;
  }
}

/**
 * TrieRouter's form (one params object per handler) with every object empty. RegExpRouter's form
 * (a stash beside index maps) is never kept: that router already answers static paths from a map.
 */
function bindsNoParameter<T>(result: Result<T>): boolean {
  if (result.length !== 1) return false;
  for (const [, params] of result[0]) {
    for (const _ in params) return false;
  }
  return true;
}
