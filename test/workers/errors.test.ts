import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call, callJson, errorBody, seedWorkspace } from "./helpers";

describe("errors and framing", () => {
  it("answers /health without authentication", async () => {
    const res = await call("GET", "/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("puts a distinct X-Request-Id on every response", async () => {
    const ws = await seedWorkspace();
    const responses = await Promise.all([
      call("GET", "/health"),
      call("GET", "/v1/accounts"),
      call("GET", "/v1/accounts", { token: ws.token }),
      call("GET", "/nowhere"),
    ]);
    const ids = responses.map((r) => r.headers.get("X-Request-Id"));
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const body = (await responses[1]?.json()) as { request_id: string };
    expect(body.request_id).toBe(ids[1]);
  });

  it("answers unknown paths with a JSON 404", async () => {
    const ws = await seedWorkspace();
    for (const [path, token] of [
      ["/nowhere", undefined],
      ["/v1/nowhere", ws.token],
    ] as const) {
      const res = await call("GET", path, { token });
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(await res.json()).toEqual({
        ...errorBody("Not found", "route_not_found"),
        message: expect.any(String),
      });
    }
  });

  it("answers a known path with a wrong method with a JSON 405 and Allow", async () => {
    const ws = await seedWorkspace();
    const res = await call("DELETE", "/v1/keys", { token: ws.token });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, POST, HEAD");
    expect(await res.json()).toEqual({
      ...errorBody("Method not allowed", "method_not_allowed"),
      message: expect.any(String),
    });
    const put = await call("PUT", `/v1/accounts/${ws.accountId}`, { token: ws.token, body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, PATCH, HEAD");
  });

  it("answers 500 with a generic body that leaks nothing", async () => {
    const ws = await seedWorkspace();
    const secret = "D1_INTERNAL_DETAIL_should_never_leak";
    const brokenDb = {
      prepare: () => {
        throw new Error(secret);
      },
      batch: () => Promise.reject(new Error(secret)),
      // A request's queries run in a session (request-context-middleware.ts): the same broken calls.
      withSession: () => brokenDb,
      getBookmark: () => null,
    };
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request("http://localhost/v1/keys", { headers: { Authorization: `Bearer ${ws.token}` } }),
      { ...env, DB_2: brokenDb as unknown as D1Database },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain("at ");
    expect(JSON.parse(text)).toEqual({
      ...errorBody("Internal server error", "internal_error"),
      message: expect.any(String),
    });
  });

  it("refuses a limit outside 1..100 with 400", async () => {
    const ws = await seedWorkspace();
    for (const limit of ["0", "101", "abc", "-5"]) {
      const { status, body } = await callJson(
        "GET",
        `/v1/accounts/${ws.accountId}/request-logs?limit=${limit}`,
        {
          token: ws.token,
        },
      );
      expect(status).toBe(400);
      expect(body.details).toEqual([{ path: "query.limit", message: expect.any(String) }]);
    }
  });
});
