import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { nameTokenHashes } from "../../src/db/directory/token-hashes";
import { sha256Hex } from "../../src/lib/crypto";
import { describeError } from "../../src/lib/logger";
import { directory, errorBody, seedUser, seedWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

/** The JSON lines the Worker writes to console.error while `run` runs. */
async function errorLinesDuring(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

afterEach(async () => {
  await env.DB_2.prepare("DROP TRIGGER IF EXISTS refuse_customers").run();
  await env.DB_2.prepare("DROP TRIGGER IF EXISTS refuse_sessions").run();
});

describe("error logs", () => {
  it("log a failed query's shape and SQLite code, never its bound values", async () => {
    const ws = await seedWorkspace();
    // The database itself refuses the write: a real failure, the way a broken migration would.
    await env.DB_2.prepare(
      "CREATE TRIGGER refuse_customers BEFORE INSERT ON customers BEGIN SELECT RAISE(ABORT, 'customers are closed'); END",
    ).run();
    const email = "alice.private@example.com";
    const name = "Alice Privatename";
    let status = 0;
    let body: unknown;
    const lines = await errorLinesDuring(async () => {
      const ctx = createExecutionContext();
      const res = await createApp().fetch(
        new Request("http://localhost/v1/customers", {
          method: "POST",
          headers: { Authorization: `Bearer ${ws.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ email, name }),
        }),
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      status = res.status;
      body = await res.json();
    });
    expect(status).toBe(500);
    expect(body).toEqual({
      ...errorBody("Internal server error", "internal_error"),
      message: expect.any(String),
    });

    const line = lines.find((l) => l.includes("request.unhandled_error")) ?? "";
    expect(JSON.parse(line)).toMatchObject({
      level: "error",
      event: "request.unhandled_error",
      // The customer is written in a batch (with its idempotent answer, when there is one).
      error_name: "BatchQueryError",
      path: "/v1/customers",
      error_code: expect.stringMatching(/^SQLITE_CONSTRAINT/),
      error_query: expect.stringMatching(/insert into "customers" \(.*\) values \(\?, \?/),
    });
    for (const secret of [email, "alice.private", name, ws.accountId]) expect(line).not.toContain(secret);
  });

  it("name the route, not the path, so a sign-in token in the URL never reaches the log", async () => {
    const ws = await seedWorkspace();
    const user = await seedUser(ws.accountId, { role: "owner" });
    const token = "LoginTokenThatMustNotBeLogged0123456789abcd";
    const link = {
      tokenHash: await sha256Hex(token),
      accountId: ws.accountId,
      expiresAt: Date.now() + 600_000,
    };
    await nameTokenHashes(directory(), "signIn", [link]);
    await env.DB_2.prepare(
      "INSERT INTO login_tokens (token_hash, account_id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
    )
      .bind(link.tokenHash, ws.accountId, user.id, link.expiresAt, Date.now())
      .run();
    await env.DB_2.prepare(
      "CREATE TRIGGER refuse_sessions BEFORE INSERT ON sessions BEGIN SELECT RAISE(ABORT, 'sessions are closed'); END",
    ).run();
    const lines = await errorLinesDuring(async () => {
      expect((await postForm(`/login/${token}`)).status).toBe(500);
    });
    const line = lines.find((l) => l.includes("request.unhandled_error")) ?? "";
    expect(JSON.parse(line)).toMatchObject({ path: "/login/:token" });
    expect(line).not.toContain(token);
  });

  it("keep email addresses and API keys out of other errors' messages", () => {
    const error = new Error(
      "550 5.1.1 <bob.smith@example.org>: mailbox unavailable; key sk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg",
    );
    const described = JSON.stringify(describeError(error));
    expect(described).toContain("550 5.1.1");
    expect(described).not.toContain("bob.smith");
    expect(described).not.toContain("example.org");
    expect(described).not.toContain("AbCdEfGh");
  });
});
