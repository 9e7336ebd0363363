import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { revokeKey } from "../../src/features/keys/keys.service";
import { addKey, call, callJson, db, errorBody, seedWorkspace } from "./helpers";

const invalidKey = { ...errorBody("Invalid API key", "invalid_api_key"), message: expect.any(String) };

describe("authentication", () => {
  it("refuses a request without Authorization with 401 and the spec's body", async () => {
    const { status, body } = await callJson("GET", "/v1/accounts");
    expect(status).toBe(401);
    expect(body).toEqual(invalidKey);
  });

  it.each([
    ["a non-bearer scheme", "Basic dXNlcjpwYXNz"],
    ["a token without the sk_ prefix", "Bearer pk_0123456789012345678901234567890123456789012"],
    ["a token of the wrong length", "Bearer sk_short"],
    ["a token with symbols", "Bearer sk_0123456789012345678901234567890123456789-_!"],
  ])("refuses %s with 401", async (_name, header) => {
    const { status, body } = await callJson("GET", "/v1/accounts", { headers: { Authorization: header } });
    expect(status).toBe(401);
    expect(body).toEqual(invalidKey);
  });

  it("refuses malformed tokens before any Durable Object is created", async () => {
    const before = (await listDurableObjectIds(env.KEY_GUARD)).length;
    for (let i = 0; i < 5; i++) {
      await call("GET", "/v1/accounts", { headers: { Authorization: `Bearer sk_bad${i}` } });
    }
    expect((await listDurableObjectIds(env.KEY_GUARD)).length).toBe(before);
  });

  it("refuses a well-formed but unknown key with 401", async () => {
    const token = `sk_${"A".repeat(43)}`;
    const { status, body } = await callJson("GET", "/v1/accounts", { token });
    expect(status).toBe(401);
    expect(body).toEqual(invalidKey);
  });

  it("refuses a revoked key from the very next request", async () => {
    const ws = await seedWorkspace();
    const key = await addKey(ws.accountId, "write");
    expect((await call("GET", "/v1/accounts", { token: key.token })).status).toBe(200);

    await revokeKey(db(), env.KEY_GUARD, key.id);

    const { status, body } = await callJson("GET", "/v1/accounts", { token: key.token });
    expect(status).toBe(401);
    expect(body).toEqual(invalidKey);
    // The revoked key stays listed, inactive.
    const list = await callJson<{ data: Array<{ id: string; is_active: boolean }> }>("GET", "/v1/keys", {
      token: ws.token,
    });
    expect(list.body.data.find((k) => k.id === key.id)?.is_active).toBe(false);
  });

  it("refuses a key of a suspended account with 403", async () => {
    const ws = await seedWorkspace({ status: "suspended" });
    const { status, body } = await callJson("GET", "/v1/accounts", { token: ws.token });
    expect(status).toBe(403);
    expect(body).toEqual({
      ...errorBody("Account suspended", "account_suspended"),
      message: expect.any(String),
    });
  });

  it("shows the first use in last_used_at at once", async () => {
    const ws = await seedWorkspace();
    const fresh = await addKey(ws.accountId, "read");
    const before = Date.now();
    expect((await call("GET", "/v1/accounts", { token: fresh.token })).status).toBe(200);

    const { body } = await callJson<{ data: Array<{ id: string; last_used_at: string | null }> }>(
      "GET",
      "/v1/keys",
      { token: ws.token },
    );
    const lastUsed = body.data.find((k) => k.id === fresh.id)?.last_used_at;
    expect(lastUsed).not.toBeNull();
    expect(Date.parse(lastUsed as string)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("permissions", () => {
  it("lets a read key read but refuses writes and admin routes with 403", async () => {
    const ws = await seedWorkspace();
    const read = await addKey(ws.accountId, "read");

    expect((await call("GET", "/v1/accounts", { token: read.token })).status).toBe(200);
    expect((await call("GET", `/v1/accounts/${ws.accountId}`, { token: read.token })).status).toBe(200);

    const forbidden = { ...errorBody("Forbidden", "insufficient_permission"), message: expect.any(String) };
    const patch = await callJson("PATCH", `/v1/accounts/${ws.accountId}`, {
      token: read.token,
      body: { name: "Nope" },
    });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual(forbidden);

    const list = await callJson("GET", "/v1/keys", { token: read.token });
    expect(list.status).toBe(403);
    expect(list.body).toEqual(forbidden);

    const create = await callJson("POST", "/v1/keys", {
      token: read.token,
      body: { name: "x", permission: "read" },
    });
    expect(create.status).toBe(403);
  });

  it("refuses admin routes to a write key", async () => {
    const ws = await seedWorkspace();
    const write = await addKey(ws.accountId, "write");
    expect((await call("GET", "/v1/keys", { token: write.token })).status).toBe(403);
    expect(
      (await call("POST", "/v1/keys", { token: write.token, body: { name: "x", permission: "read" } }))
        .status,
    ).toBe(403);
    expect(
      (await call("PATCH", `/v1/accounts/${ws.accountId}`, { token: write.token, body: { name: "x" } }))
        .status,
    ).toBe(403);
  });
});
