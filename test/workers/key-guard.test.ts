import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { KeyGuard } from "../../src/auth/key-guard";
import { hashToken } from "../../src/auth/token";
import { call, eventually, seedWorkspace } from "./helpers";

/** The guard's private state, reached inside the object for these tests only. */
type GuardInternals = { readRecord: (hash: string) => Promise<void>; lastUsedWrittenAt: number };

async function guardOf(token: string) {
  return env.KEY_GUARD.get(env.KEY_GUARD.idFromName(await hashToken(token)));
}

describe("KeyGuard", () => {
  it("authenticates a warm key without reading D1", async () => {
    const ws = await seedWorkspace();
    expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);

    const guard = await guardOf(ws.token);
    let reads = 0;
    await runInDurableObject(guard, (instance: KeyGuard) => {
      const internals = instance as unknown as GuardInternals;
      const original = internals.readRecord.bind(instance);
      internals.readRecord = (hash) => {
        reads++;
        return original(hash);
      };
    });
    for (let i = 0; i < 3; i++)
      expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);
    expect(reads).toBe(0);
  });

  it("keeps last_used_at within a minute of the truth after the first use", async () => {
    const ws = await seedWorkspace();
    expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);
    const anHourAgo = Date.now() - 3_600_000;
    await env.DB_2.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?")
      .bind(anHourAgo, ws.keyId)
      .run();

    // Within the write interval nothing is written...
    expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);
    const row = await env.DB_2.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
      .bind(ws.keyId)
      .first();
    expect(row?.last_used_at).toBe(anHourAgo);

    // ...and once 30 s have passed since the last write, the next use is written.
    await runInDurableObject(await guardOf(ws.token), (instance: KeyGuard) => {
      (instance as unknown as GuardInternals).lastUsedWrittenAt = Date.now() - 31_000;
    });
    const before = Date.now();
    expect((await call("GET", "/v1/accounts", { token: ws.token })).status).toBe(200);
    await eventually(async () => {
      const updated = await env.DB_2.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
        .bind(ws.keyId)
        .first();
      return (updated?.last_used_at as number) >= before - 1000;
    });
  });

  it("re-reads a key whose record was forgotten (plan change)", async () => {
    const ws = await seedWorkspace({ plan: "free" });
    const first = await call("GET", "/v1/accounts", { token: ws.token });
    expect(first.headers.get("X-RateLimit-Limit")).toBe("300");
    await env.DB_2.prepare("UPDATE accounts SET plan = 'pro' WHERE id = ?").bind(ws.accountId).run();
    await (await guardOf(ws.token)).forget();
    const second = await call("GET", "/v1/accounts", { token: ws.token });
    expect(second.headers.get("X-RateLimit-Limit")).toBe("3000");
    // Admissions made under the old limit still count in the window.
    expect(second.headers.get("X-RateLimit-Remaining")).toBe("2998");
  });
});
