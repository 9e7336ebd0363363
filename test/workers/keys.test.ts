import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { addKey, call, callJson, errorBody, seedWorkspace } from "./helpers";

interface KeyList {
  data: Array<Record<string, unknown> & { id: string }>;
  meta: { total: number };
}

describe("POST /v1/keys", () => {
  it("creates a key in the caller's workspace and shows its token once", async () => {
    const ws = await seedWorkspace();
    const { status, body } = await callJson("POST", "/v1/keys", {
      token: ws.token,
      body: { name: "CI deploys", permission: "write" },
    });
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(
      ["created_at", "id", "key_prefix", "name", "permission", "token", "warning"].sort(),
    );
    expect(body).toMatchObject({ name: "CI deploys", permission: "write" });
    expect(body.id).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(body.token).toMatch(/^sk_[0-9A-Za-z]{49}$/);
    expect(body.key_prefix).toBe((body.token as string).slice(0, 10));
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.warning).toEqual(expect.stringContaining("only once"));

    // The new key works and belongs to the caller's account.
    const accounts = await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/accounts", {
      token: body.token as string,
    });
    expect(accounts.body.data.map((a) => a.id)).toEqual([ws.accountId]);
  });

  it("stores only the token's SHA-256", async () => {
    const ws = await seedWorkspace();
    const { body } = await callJson("POST", "/v1/keys", {
      token: ws.token,
      body: { name: "x", permission: "read" },
    });
    const row = await env.DB_2.prepare("SELECT * FROM api_keys WHERE id = ?").bind(body.id).first();
    expect(row?.token_hash).toBe(await sha256Hex(body.token as string));
    expect(JSON.stringify(row)).not.toContain(body.token as string);
  });

  it.each([
    ["no name", { permission: "read" }],
    ["no permission", { name: "x" }],
    ["an unknown permission", { name: "x", permission: "owner" }],
    ["an empty name", { name: "  ", permission: "read" }],
    ["an unknown field", { name: "x", permission: "read", scopes: ["all"] }],
  ])("answers 400 with details for %s", async (_case, payload) => {
    const ws = await seedWorkspace();
    const { status, body } = await callJson("POST", "/v1/keys", { token: ws.token, body: payload });
    expect(status).toBe(400);
    expect(body).toEqual({
      ...errorBody("Invalid request", "validation_error"),
      message: expect.any(String),
      details: expect.arrayContaining([
        { path: expect.stringMatching(/^body/), message: expect.any(String) },
      ]),
    });
  });

  it("answers 400 for a missing or non-JSON body", async () => {
    const ws = await seedWorkspace();
    expect((await call("POST", "/v1/keys", { token: ws.token })).status).toBe(400);
    const malformed = await callJson("POST", "/v1/keys", {
      token: ws.token,
      rawBody: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: "Invalid request", code: expect.any(String) });
  });
});

describe("GET /v1/keys", () => {
  it("lists every key newest first, revoked included, never with a token", async () => {
    const ws = await seedWorkspace();
    const second = await addKey(ws.accountId, "read");
    const third = await addKey(ws.accountId, "write");
    await env.DB_2.prepare("UPDATE api_keys SET is_active = 0 WHERE id = ?").bind(second.id).run();

    const { status, body } = await callJson<KeyList>("GET", "/v1/keys", { token: ws.token });
    expect(status).toBe(200);
    expect(body.meta).toEqual({ total: 3 });
    expect(body.data.map((k) => k.id)).toEqual([third.id, second.id, ws.keyId]);
    for (const key of body.data) {
      expect(Object.keys(key).sort()).toEqual(
        ["created_at", "id", "is_active", "key_prefix", "last_used_at", "name", "permission"].sort(),
      );
    }
    expect(body.data[1]).toMatchObject({ is_active: false, permission: "read" });
    expect(JSON.stringify(body)).not.toContain(third.token);
  });

  it("never shows another workspace's keys", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const { body } = await callJson<KeyList>("GET", "/v1/keys", { token: a.token });
    expect(body.data.map((k) => k.id)).not.toContain(b.keyId);
    expect(body.data.every((k) => k.id === a.keyId)).toBe(true);
  });
});
