import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { BOOKMARK_HEADER } from "../../src/lib/read-consistency";

/** A D1 bookmark as D1 hands it out (four hex groups), locally too. */
export const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** A bookmark as the service hands it out: the shard's binding name, a colon, D1's bookmark. */
export const namedBookmark = (shard: string) => new RegExp(`^${shard}:${D1_BOOKMARK.source.slice(1, -1)}$`);

/** The D1 part of a bookmark the service handed out. */
export const d1Part = (bookmark: string) => bookmark.slice(bookmark.indexOf(":") + 1);

export const bookmarkOf = (res: Response) => res.headers.get(BOOKMARK_HEADER) ?? "";

/** The real binding, noting where each session it opens starts. */
export function recordingSessions(d1: D1Database) {
  const starts: (string | undefined)[] = [];
  const binding = new Proxy(d1, {
    get(target, property) {
      if (property === "withSession")
        return (start?: string) => {
          starts.push(start);
          return target.withSession(start);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, starts };
}

/** One request through the Worker's fetch entry point with `vars` and `DB` over the test bindings. */
export async function fetchWith(
  path: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    form?: Record<string, string>;
  } = {},
  over: Record<string, unknown> = {},
) {
  const headers = new Headers(init.headers);
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  const request = new Request(`http://127.0.0.1:8787${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.form
      ? new URLSearchParams(init.form).toString()
      : init.body === undefined
        ? undefined
        : JSON.stringify(init.body),
    redirect: "manual",
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    request as Parameters<typeof worker.fetch>[0],
    { ...env, ...over } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}
