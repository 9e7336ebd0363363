import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { defineRoute, jsonResponse } from "../../src/lib/openapi";
import {
  countedList,
  countedPage,
  flatList,
  metaList,
  namedCountedList,
  namedList,
  offsetQuery,
  pagedList,
  pageOffset,
  pageQuery,
  standardList,
} from "../../src/lib/pagination";
import { createRouter } from "../../src/lib/router";
import { handleError } from "../../src/ui/error-handler";

/** A throwaway router that echoes the parsed paging parameters, to test the query schemas. */
function echoApp() {
  const echo = z.object({}).catchall(z.unknown());
  const app = createRouter();
  app.use("*", async (c, next) => {
    c.set("requestId", "req_TEST");
    await next();
  });
  for (const [path, query] of [
    ["/offset50", offsetQuery(50)],
    ["/offset20", offsetQuery(20)],
    ["/paged", pageQuery()],
  ] as const) {
    app.openapi(
      defineRoute("public", {
        method: "get",
        path,
        request: { query },
        responses: { 200: jsonResponse(echo, "") },
      }),
      (c) => c.json(c.req.valid("query") as Record<string, unknown>, 200),
    );
  }
  app.onError(handleError);
  return app;
}

describe("paging parameters", () => {
  const app = echoApp();
  it("defaults limit to 50 or 20 and offset to 0, page to 1", async () => {
    expect(await (await app.request("/offset50")).json()).toEqual({ limit: 50, offset: 0 });
    expect(await (await app.request("/offset20")).json()).toEqual({ limit: 20, offset: 0 });
    expect(await (await app.request("/paged")).json()).toEqual({ page: 1, limit: 50 });
    expect(await (await app.request("/offset50?limit=100&offset=7")).json()).toEqual({
      limit: 100,
      offset: 7,
    });
  });

  it.each([
    "/offset50?limit=101",
    "/offset20?limit=0",
    "/paged?limit=500",
    "/paged?page=0",
    "/offset50?offset=-1",
  ])("answers 400 for %s", async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Invalid request", code: "validation_error" });
  });
});

describe("list envelopes", () => {
  const items = [{ id: 1 }, { id: 2 }];
  it("builds each shape of the spec's table", () => {
    expect(standardList(items, 9, { limit: 2, offset: 4 })).toEqual({
      data: items,
      pagination: { limit: 2, offset: 4, total: 9 },
    });
    expect(pagedList(items, 9, { page: 2, limit: 2 })).toEqual({
      data: items,
      pagination: { page: 2, limit: 2, total: 9, pages: 5 },
    });
    expect(pageOffset({ page: 3, limit: 20 })).toBe(40);
    expect(namedList("campaigns", items, 9, { limit: 20, offset: 0 })).toEqual({
      campaigns: items,
      pagination: { total: 9, limit: 20, offset: 0 },
    });
    expect(countedList(items)).toEqual({ data: items, count: 2 });
    expect(namedCountedList("attachments", items)).toEqual({ attachments: items, count: 2 });
    expect(metaList(items)).toEqual({ data: items, meta: { total: 2 } });
    expect(flatList(items, 9, { limit: 50, offset: 0 })).toEqual({
      data: items,
      total: 9,
      limit: 50,
      offset: 0,
    });
    expect(countedPage(items, 9, { limit: 20, offset: 0 })).toEqual({
      data: items,
      count: 9,
      limit: 20,
      offset: 0,
    });
  });

  it("counts zero pages for an empty result", () => {
    expect(pagedList([], 0, { page: 1, limit: 50 }).pagination.pages).toBe(0);
  });
});
