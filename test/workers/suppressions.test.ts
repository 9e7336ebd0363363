import { describe, expect, it } from "vitest";
import { recordBounce } from "../../src/features/suppressions/bounces";
import { call, callJson, db, errorBody, seedWorkspace } from "./helpers";

type List = { data: Array<{ email: string; reason: string }>; pagination: { total: number } };

describe("suppressions API", () => {
  it("adds, lists, refuses duplicates, removes, and keeps workspaces apart", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const created = await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "Ada@Example.com" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: "ada@example.com",
      reason: "manual",
      id: expect.stringMatching(/^sup_/),
    });
    const dup = await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "ada@example.com" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      ...errorBody("Already suppressed", "already_suppressed"),
      message: expect.any(String),
    });

    const list = await callJson<List>("GET", "/v1/emails/suppressions", { token: ws.token });
    expect(list.body.data.map((s) => s.email)).toEqual(["ada@example.com"]);
    expect(
      (await callJson<List>("GET", "/v1/emails/suppressions", { token: other.token })).body.pagination.total,
    ).toBe(0);
    expect(
      (await call("DELETE", "/v1/emails/suppressions/ada@example.com", { token: other.token })).status,
    ).toBe(404);

    expect(
      (await callJson("DELETE", "/v1/emails/suppressions/ADA%40example.com", { token: ws.token })).body,
    ).toEqual({
      email: "ada@example.com",
      deleted: true,
    });
    expect(
      (await call("DELETE", "/v1/emails/suppressions/ada@example.com", { token: ws.token })).status,
    ).toBe(404);
  });
});

describe("bounces", () => {
  it("suppresses at once for a hard bounce or a complaint, and on the third soft bounce in 7 days", async () => {
    const ws = await seedWorkspace();
    const bounce = (email: string, kind: "hard" | "soft" | "complaint", at = Date.now()) =>
      recordBounce(db(), { accountId: ws.accountId, email, kind, emailId: null, detail: null }, at);
    expect(await bounce("hard@example.com", "hard")).toBe(true);
    expect(await bounce("angry@example.com", "complaint")).toBe(true);
    const eightDaysAgo = Date.now() - 8 * 86_400_000;
    expect(await bounce("soft@example.com", "soft", eightDaysAgo)).toBe(false);
    expect(await bounce("soft@example.com", "soft")).toBe(false);
    expect(await bounce("soft@example.com", "soft")).toBe(false);
    expect(await bounce("soft@example.com", "soft")).toBe(true);

    const list = await callJson<List>("GET", "/v1/emails/suppressions?limit=10", { token: ws.token });
    expect(Object.fromEntries(list.body.data.map((s) => [s.email, s.reason]))).toEqual({
      "hard@example.com": "hard_bounce",
      "angry@example.com": "complaint",
      "soft@example.com": "soft_bounces",
    });
  });
});
