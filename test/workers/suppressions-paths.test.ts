import { describe, expect, it } from "vitest";
import { call, callJson, seedWorkspace } from "./helpers";

// The document names /v1/suppressions; /v1/emails/suppressions, the first paths, must answer the same.
describe("suppressions at /v1/suppressions and at /v1/emails/suppressions", () => {
  it("are one resource: written through either path, read the same through both", async () => {
    const ws = await seedWorkspace();
    const created = await callJson("POST", "/v1/suppressions", {
      token: ws.token,
      body: { email: "ada@example.com", detail: "by hand" },
    });
    expect(created.status).toBe(201);
    const viaAlias = await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "bob@example.com" },
    });
    expect(viaAlias.status).toBe(201);
    expect(
      (await callJson("POST", "/v1/suppressions", { token: ws.token, body: { email: "bob@example.com" } }))
        .status,
    ).toBe(409);

    const canonical = await call("GET", "/v1/suppressions", { token: ws.token });
    const alias = await call("GET", "/v1/emails/suppressions", { token: ws.token });
    expect(canonical.status).toBe(200);
    const body = await canonical.text();
    expect(await alias.text()).toBe(body);
    expect(JSON.parse(body).pagination.total).toBe(2);

    expect((await call("DELETE", "/v1/suppressions/ada@example.com", { token: ws.token })).status).toBe(200);
    expect(
      (await call("DELETE", "/v1/emails/suppressions/ada@example.com", { token: ws.token })).status,
    ).toBe(404);
    expect(
      (await call("DELETE", "/v1/emails/suppressions/bob@example.com", { token: ws.token })).status,
    ).toBe(200);
    expect((await call("DELETE", "/v1/suppressions/bob@example.com", { token: ws.token })).status).toBe(404);
  });

  it("answers the same error to the same bad request", async () => {
    const ws = await seedWorkspace();
    const bad = { token: ws.token, body: { email: "not an address" } };
    const canonical = await callJson("POST", "/v1/suppressions", bad);
    const alias = await callJson("POST", "/v1/emails/suppressions", bad);
    expect(canonical.status).toBe(400);
    expect(alias.status).toBe(400);
    const { request_id: _a, ...canonicalError } = canonical.body;
    const { request_id: _b, ...aliasError } = alias.body;
    expect(aliasError).toEqual(canonicalError);
  });
});
