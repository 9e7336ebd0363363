import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addKey, call, callJson, seedWorkspace } from "./helpers";

describe("POST /_ops/keys/{id}/revoke", () => {
  it("revokes a key with the operator token, effective at the next request", async () => {
    const ws = await seedWorkspace();
    const key = await addKey(ws.accountId, "read");
    expect((await call("GET", "/v1/accounts", { token: key.token })).status).toBe(200);

    const { status, body } = await callJson("POST", `/_ops/keys/${key.id}/revoke`, { token: env.OPS_TOKEN });
    expect(status).toBe(200);
    expect(body).toEqual({ id: key.id, is_active: false });
    expect((await call("GET", "/v1/accounts", { token: key.token })).status).toBe(401);
  });

  it("refuses a wrong operator token, and API keys", async () => {
    const ws = await seedWorkspace();
    const wrong = await callJson("POST", `/_ops/keys/${ws.keyId}/revoke`, {
      headers: { Authorization: "Bearer not-the-ops-token" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("invalid_ops_token");
    expect((await call("POST", `/_ops/keys/${ws.keyId}/revoke`, { token: ws.token })).status).toBe(401);
    expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);
  });

  it("answers 404 for an unknown key", async () => {
    const res = await call("POST", "/_ops/keys/key_00000000000000000000000000/revoke", {
      token: env.OPS_TOKEN,
    });
    expect(res.status).toBe(404);
  });
});
