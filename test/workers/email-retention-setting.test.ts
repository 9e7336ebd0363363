import { describe, expect, it } from "vitest";
import { EMAIL_RETENTION_MAX_DAYS } from "../../src/lib/email-retention";
import { PLAN_NAMES } from "../../src/lib/plans";
import { addKey, call, callJson, errorBody, seedWorkspace, shardD1Of } from "./helpers";

interface Account {
  email_retention: string;
  email_retention_max: string;
}

const account = (ws: { accountId: string; token: string }) =>
  callJson<Account>("GET", `/v1/accounts/${ws.accountId}`, { token: ws.token });

const patch = (ws: { accountId: string; token: string }, body: unknown, token = ws.token) =>
  callJson<Record<string, unknown>>("PATCH", `/v1/accounts/${ws.accountId}`, { token, body });

const storedDays = async (accountId: string) =>
  (
    await shardD1Of()
      .prepare("SELECT email_retention_days AS days FROM accounts WHERE id = ?")
      .bind(accountId)
      .first<{ days: number | null }>()
  )?.days;

const usageRetention = async (ws: { accountId: string; token: string }) =>
  (
    await callJson<{ limits: { email_retention_days: number } }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      {
        token: ws.token,
      },
    )
  ).body.limits.email_retention_days;

describe("the email_retention setting", () => {
  it("defaults to the plan's maximum: free 30d, starter 45d, pro 90d, enterprise 400d", async () => {
    const expected = { free: "30d", starter: "45d", pro: "90d", enterprise: "400d" };
    for (const plan of PLAN_NAMES) {
      const ws = await seedWorkspace({ plan });
      const { status, body } = await account(ws);
      expect(status).toBe(200);
      expect(body).toMatchObject({ email_retention: expected[plan], email_retention_max: expected[plan] });
      expect(await usageRetention(ws)).toBe(EMAIL_RETENTION_MAX_DAYS[plan]);
      expect(await storedDays(ws.accountId)).toBeNull();
    }
  });

  it("is set and lowered down to 1d, stored in days", async () => {
    const ws = await seedWorkspace({ plan: "pro" });
    const set = await patch(ws, { email_retention: "60d" });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ email_retention: "60d", email_retention_max: "90d" });
    expect(await storedDays(ws.accountId)).toBe(60);
    const lowest = await patch(ws, { email_retention: "1d" });
    expect(lowest.body).toMatchObject({ email_retention: "1d", email_retention_max: "90d" });
    expect(await storedDays(ws.accountId)).toBe(1);
    const max = await patch(ws, { email_retention: "90d" });
    expect(max.body.email_retention).toBe("90d");
    expect((await account(ws)).body.email_retention).toBe("90d");
    expect(await usageRetention(ws)).toBe(90);
    // Other settings leave it alone.
    await patch(ws, { email_retention: "7d" });
    await patch(ws, { name: "Renamed" });
    expect((await account(ws)).body.email_retention).toBe("7d");
  });

  it("refuses more than the plan keeps with a 422 naming the plan and its maximum", async () => {
    const free = await seedWorkspace({ plan: "free" });
    const { status, body } = await patch(free, { email_retention: "31d" });
    expect(status).toBe(422);
    expect(body).toEqual({
      ...errorBody("Invalid request", "validation_error"),
      message: expect.stringContaining("free plan"),
      details: [{ path: "body.email_retention", message: expect.stringContaining("30d") }],
    });
    expect(body.message).toContain("30d");
    expect(await storedDays(free.accountId)).toBeNull();

    const enterprise = await seedWorkspace({ plan: "enterprise" });
    const far = await patch(enterprise, { email_retention: "401d" });
    expect(far.status).toBe(422);
    expect(far.body.message).toContain("enterprise plan");
    expect(far.body.message).toContain("400d");
    expect(await storedDays(enterprise.accountId)).toBeNull();
  });

  it.each([
    ["0d", "0d"],
    ["no unit", "30"],
    ["a number", 30],
    ["hours", "12h"],
    ["a fraction", "1.5d"],
    ["a negative", "-1d"],
    ["a space", "30 d"],
    ["a capital D", "30D"],
    ["a leading zero", "030d"],
    ["an empty string", ""],
    ["null", null],
  ])("answers 400 for %s, as request_log_retention does", async (_case, value) => {
    const ws = await seedWorkspace({ plan: "pro" });
    const { status, body } = await patch(ws, { email_retention: value });
    expect(status).toBe(400);
    expect(body.code).toBe("validation_error");
    expect(body.details).toEqual([expect.objectContaining({ path: "body.email_retention" })]);
    expect(await storedDays(ws.accountId)).toBeNull();
  });

  it("is capped by a plan change down, and comes back with the plan", async () => {
    const ws = await seedWorkspace({ plan: "pro" });
    await patch(ws, { email_retention: "60d" });
    const setPlan = (plan: string) =>
      shardD1Of().prepare("UPDATE accounts SET plan = ? WHERE id = ?").bind(plan, ws.accountId).run();
    await setPlan("free");
    expect((await account(ws)).body).toMatchObject({ email_retention: "30d", email_retention_max: "30d" });
    expect(await usageRetention(ws)).toBe(30);
    // The stored choice is kept, but on the lower plan it cannot be asked for again.
    expect(await storedDays(ws.accountId)).toBe(60);
    expect((await patch(ws, { email_retention: "60d" })).status).toBe(422);
    await setPlan("pro");
    expect((await account(ws)).body).toMatchObject({ email_retention: "60d", email_retention_max: "90d" });
  });

  it("cannot be changed with a read or write key, which still see it", async () => {
    const ws = await seedWorkspace({ plan: "starter" });
    for (const permission of ["read", "write"] as const) {
      const key = await addKey(ws.accountId, permission);
      const refused = await call("PATCH", `/v1/accounts/${ws.accountId}`, {
        token: key.token,
        body: { email_retention: "2d" },
      });
      expect(refused.status).toBe(403);
      const seen = await callJson<Account>("GET", `/v1/accounts/${ws.accountId}`, { token: key.token });
      expect(seen.body).toMatchObject({ email_retention: "45d", email_retention_max: "45d" });
    }
    expect(await storedDays(ws.accountId)).toBeNull();
  });
});
