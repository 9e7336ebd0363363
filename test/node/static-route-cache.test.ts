import { Hono } from "hono";
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { StaticRouteCache } from "../../src/lib/static-route-cache";

/** A TrieRouter that counts how often it is asked. */
function countingTrie() {
  const inner = new TrieRouter<string>();
  let matches = 0;
  const router: Router<string> = {
    name: "counting",
    add: (method, path, handler) => inner.add(method, path, handler),
    match: (method, path) => {
      matches++;
      return inner.match(method, path);
    },
  };
  return { router, matches: () => matches };
}

const handlersOf = (result: Result<string>) => result[0].map(([handler]) => handler);

describe("StaticRouteCache", () => {
  it("answers a path without parameters from memory, and a path with an id afresh", () => {
    const { router, matches } = countingTrie();
    const cache = new StaticRouteCache(router);
    cache.add("ALL", "/v1/*", "auth");
    cache.add("GET", "/v1/accounts", "accounts");
    cache.add("GET", "/v1/emails/suppressions", "suppressions");
    cache.add("GET", "/v1/emails/:id", "email");

    expect(handlersOf(cache.match("GET", "/v1/accounts"))).toEqual(["auth", "accounts"]);
    expect(handlersOf(cache.match("GET", "/v1/accounts"))).toEqual(["auth", "accounts"]);
    expect(matches()).toBe(1);

    const first = cache.match("GET", "/v1/emails/eml_1");
    const second = cache.match("GET", "/v1/emails/eml_2");
    expect(matches()).toBe(3);
    expect(first[0][1]?.[1]).toEqual({ id: "eml_1" });
    expect(second[0][1]?.[1]).toEqual({ id: "eml_2" });

    // The static path also matches the id route, which binds `id`: matched afresh every time.
    expect(handlersOf(cache.match("GET", "/v1/emails/suppressions"))).toEqual([
      "auth",
      "suppressions",
      "email",
    ]);
    cache.match("GET", "/v1/emails/suppressions");
    expect(matches()).toBe(5);
  });

  it("forgets what it kept when a route is added", () => {
    const { router } = countingTrie();
    const cache = new StaticRouteCache(router);
    cache.add("GET", "/health", "health");
    expect(handlersOf(cache.match("GET", "/health"))).toEqual(["health"]);
    cache.add("ALL", "*", "log");
    expect(handlersOf(cache.match("GET", "/health"))).toEqual(["health", "log"]);
  });

  it("keeps at most 256 paths, pushing out the least recently used", () => {
    const { router, matches } = countingTrie();
    const cache = new StaticRouteCache(router);
    cache.add("ALL", "*", "not-found");
    cache.match("GET", "/kept");
    for (let i = 0; i < 255; i++) cache.match("GET", `/unknown-${i}`);
    cache.match("GET", "/kept"); // used again: now the most recent
    cache.match("GET", "/one-more"); // pushes out /unknown-0, the oldest
    const before = matches();
    cache.match("GET", "/kept");
    expect(matches()).toBe(before);
    cache.match("GET", "/unknown-0");
    expect(matches()).toBe(before + 1);
  });

  it("never keeps a path longer than 200 characters", () => {
    const { router, matches } = countingTrie();
    const cache = new StaticRouteCache(router);
    cache.add("ALL", "*", "not-found");
    const long = `/${"a".repeat(200)}`;
    cache.match("GET", long);
    cache.match("GET", long);
    expect(matches()).toBe(2);
  });

  it("routes a Hono app exactly as hono's own router does", async () => {
    const build = (router?: StaticRouteCache<never>) => {
      const app = router ? new Hono({ router }) : new Hono();
      app.use("/v1/*", async (c, next) => {
        await next();
        c.header("X-Seen", "1");
      });
      app.get("/v1/emails/suppressions", (c) => c.text("list"));
      app.get("/v1/emails/:id", (c) => c.text(`email ${c.req.param("id")}`));
      return app;
    };
    const cached = build(new StaticRouteCache());
    const plain = build();
    for (const path of ["/v1/emails/suppressions", "/v1/emails/eml_1", "/v1/emails/suppressions", "/nope"]) {
      const [a, b] = await Promise.all([cached.request(path), plain.request(path)]);
      expect([a.status, await a.text(), a.headers.get("X-Seen")]).toEqual([
        b.status,
        await b.text(),
        b.headers.get("X-Seen"),
      ]);
    }
  });
});
