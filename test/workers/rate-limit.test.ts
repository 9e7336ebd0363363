import { describe, expect, it } from "vitest";
import { RollingWindow } from "../../src/auth/rolling-window";
import { call, errorBody, seedWorkspace } from "./helpers";

describe("per-key rate limit", () => {
  it("admits exactly the plan's limit out of a concurrent burst of limit + 30", async () => {
    const ws = await seedWorkspace({ plan: "free" }); // 300 requests per minute
    const responses = await Promise.all(
      Array.from({ length: 330 }, () => call("GET", "/v1/accounts", { token: ws.token })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);

    const limited = responses.find((r) => r.status === 429) as Response;
    expect(await limited.json()).toEqual({
      ...errorBody("Rate limit exceeded", "rate_limit_exceeded"),
      message: expect.any(String),
    });
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("300");
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
  });

  it("sends the rate-limit headers on every authenticated response, errors included", async () => {
    const ws = await seedWorkspace({ overrides: { requests_per_minute: 1000 } });
    const ok = await call("GET", "/v1/accounts", { token: ws.token });
    expect(ok.headers.get("X-RateLimit-Limit")).toBe("1000");
    expect(ok.headers.get("X-RateLimit-Remaining")).toBe("999");
    expect(Number(ok.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(0);

    const notFound = await call("GET", "/v1/accounts/acc_00000000000000000000000000", { token: ws.token });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("X-RateLimit-Remaining")).toBe("998");

    const invalid = await call("POST", "/v1/keys", { token: ws.token, body: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("X-RateLimit-Limit")).toBe("1000");
  });

  it("limits each key separately", async () => {
    const a = await seedWorkspace({ overrides: { requests_per_minute: 2 } });
    const b = await seedWorkspace({ overrides: { requests_per_minute: 2 } });
    await call("GET", "/v1/accounts", { token: a.token });
    await call("GET", "/v1/accounts", { token: a.token });
    expect((await call("GET", "/v1/accounts", { token: a.token })).status).toBe(429);
    expect((await call("GET", "/v1/accounts", { token: b.token })).status).toBe(200);
  });
});

describe("RollingWindow", () => {
  it("never holds more than the limit in any 60 s and frees a slot exactly when Retry-After says", () => {
    const window = new RollingWindow(3);
    expect(window.tryAdmit(500).admitted).toBe(true);
    expect(window.tryAdmit(10_000).admitted).toBe(true);
    expect(window.tryAdmit(20_000).admitted).toBe(true);

    const refused = window.tryAdmit(30_200);
    expect(refused).toMatchObject({ admitted: false, remaining: 0 });
    // The oldest admission (at 0.5 s) leaves the window at 60.5 s: 30.3 s from now, so 31 whole seconds.
    expect(refused.resetSeconds).toBe(31);
    expect(window.tryAdmit(60_499).admitted).toBe(false);
    expect(window.tryAdmit(30_200 + refused.resetSeconds * 1000).admitted).toBe(true);
    // The slot it took is gone again until the next oldest (10 s) expires.
    expect(window.tryAdmit(61_300).admitted).toBe(false);
    expect(window.tryAdmit(70_000).admitted).toBe(true);
  });

  it("keeps memory to the traffic, not the limit", () => {
    const window = new RollingWindow(100_000_000);
    for (let t = 0; t < 5000; t++) expect(window.tryAdmit(t).admitted).toBe(true);
    expect(window.tryAdmit(5000).remaining).toBe(100_000_000 - 5001);
    // A minute later the old entries have gone and the log starts again.
    expect(window.tryAdmit(70_000)).toMatchObject({ admitted: true, remaining: 100_000_000 - 1 });
  });

  it("reports remaining slots and keeps recent admissions when the limit changes", () => {
    const window = new RollingWindow(5);
    for (const t of [0, 1000, 2000, 3000]) window.tryAdmit(t);
    expect(window.tryAdmit(4000)).toMatchObject({ admitted: true, remaining: 0 });
    const smaller = window.resizedTo(2, 5000);
    expect(smaller.tryAdmit(5000).admitted).toBe(false);
    expect(smaller.tryAdmit(63_000).admitted).toBe(true);
  });
});
