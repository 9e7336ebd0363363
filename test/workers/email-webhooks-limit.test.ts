import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { insertEndpointIfRoomStatement } from "../../src/features/email-webhooks/email-webhooks.repo";
import { createEmailWebhook } from "../../src/features/email-webhooks/email-webhooks.service";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { createEndpoint } from "./email-webhooks-helpers";
import { call, callJson, db, errorBody, rowCount, seedWorkspace } from "./helpers";
import { planOf } from "./query-plan";
import { endpoint } from "./webhook-helpers";

const create = (token: string) =>
  callJson<Record<string, unknown>>("POST", "/v1/webhooks", {
    token,
    body: { url: endpoint().url, events: ["email.sent"] },
  });

/** Each endpoint multiplies every email event into one request (and up to 8 attempts) more. */
describe("email event webhooks: at most 10 endpoints per workspace", () => {
  it("refuses the eleventh with 429 limit_exceeded, disabled ones counted; a deletion makes room", async () => {
    const ws = await seedWorkspace();
    const made = [];
    for (let i = 0; i < 10; i++) {
      made.push(
        await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"], enabled: i > 0 }),
      );
    }
    const refused = await create(ws.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      ...errorBody("Limit exceeded", "limit_exceeded"),
      message: expect.stringContaining("10 email webhook endpoints"),
      quota: "webhook_endpoints",
      current: 10,
      limit: 10,
      percentage: 100,
    });
    // Waiting never lifts it, so nothing tells a client to retry later.
    expect(refused.res.headers.get("Retry-After")).toBeNull();
    expect(await rowCount("webhook_endpoints", ws.accountId)).toBe(10);

    // Another workspace has its own ten.
    const other = await seedWorkspace();
    expect((await create(other.token)).status).toBe(201);

    expect((await call("DELETE", `/v1/webhooks/${made[0]?.id}`, { token: ws.token })).status).toBe(200);
    expect((await create(ws.token)).status).toBe(201);
    expect((await create(ws.token)).status).toBe(429);
  });

  it("lets exactly one of several concurrent creates take the last place", async () => {
    const ws = await seedWorkspace();
    for (let i = 0; i < 9; i++)
      await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(ws.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 429, 429, 429, 429, 429, 429, 429]);
    expect(await rowCount("webhook_endpoints", ws.accountId)).toBe(10);
  });

  it("lets exactly one of several concurrent service calls take the last place", async () => {
    const ws = await seedWorkspace();
    for (let i = 0; i < 9; i++)
      await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const ctx = { db: db(), env, accountId: ws.accountId, now: Date.now(), defer: () => {} };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        createEmailWebhook(ctx, { url: endpoint().url, events: ["email.sent"], enabled: true }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === "rejected")) {
      expect(o.reason).toMatchObject({ status: 429, code: "limit_exceeded" });
    }
    expect(await rowCount("webhook_endpoints", ws.accountId)).toBe(10);
  });

  it("lets concurrent creates in an empty workspace stop at ten", async () => {
    const ws = await seedWorkspace();
    const answers = await Promise.all(Array.from({ length: 14 }, () => create(ws.token)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    expect(await rowCount("webhook_endpoints", ws.accountId)).toBe(10);
  });

  it("counts the workspace's endpoints through its index", async () => {
    const row = {
      id: "whk_X",
      accountId: "acc_X",
      url: "https://example.com/h",
      events: "[]",
      enabled: true,
      secret: "x",
      createdAt: 0,
      updatedAt: 0,
    };
    const plan = await planOf(insertEndpointIfRoomStatement(row, 10));
    expect(plan.join("\n")).toMatch(
      /SEARCH webhook_endpoints USING COVERING INDEX webhook_endpoints_account_created \(account_id=\?\)/,
    );
    expect(plan.join("\n")).not.toMatch(/SCAN webhook_endpoints/);
  });

  it("the dashboard shows the count, no form at the limit, and a create past it as the 429 page", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    for (let i = 0; i < 9; i++)
      await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const nine = await (await dashboardGet("/dashboard/webhooks", admin)).text();
    expect(nine).toContain("9 of at most 10 webhooks");
    expect(nine).toContain('aria-label="Add a webhook"');

    await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const ten = await (await dashboardGet("/dashboard/webhooks", admin)).text();
    expect(ten).toContain("10 of at most 10 webhooks");
    expect(ten).not.toContain('aria-label="Add a webhook"');

    const past = await dashboardPost("/dashboard/webhooks", admin, {
      url: endpoint().url,
      events: "email.sent",
    });
    expect(past.status).toBe(429);
    expect(await past.text()).toContain("the most allowed (10, disabled ones included)");
    expect(await rowCount("webhook_endpoints", ws.accountId)).toBe(10);
  });
});
