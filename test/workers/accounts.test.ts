import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { quotaWindow } from "../../src/lib/quota-windows";
import { call, callJson, errorBody, seedWorkspace } from "./helpers";

const ACCOUNT_FIELDS = [
  "created_at",
  "default_track_clicks",
  "default_track_opens",
  "email_retention",
  "email_retention_max",
  "id",
  "name",
  "plan",
  "request_log_retention",
  "status",
  "ticket_prefix",
  "updated_at",
];

describe("accounts", () => {
  it("lists only the caller's own account as { data, count }", async () => {
    const ws = await seedWorkspace();
    await seedWorkspace();
    const { status, body } = await callJson<{ data: Array<Record<string, unknown>>; count: number }>(
      "GET",
      "/v1/accounts",
      { token: ws.token },
    );
    expect(status).toBe(200);
    expect(body.count).toBe(1);
    expect(body.data).toHaveLength(1);
    expect(Object.keys(body.data[0] ?? {}).sort()).toEqual(ACCOUNT_FIELDS);
    expect(body.data[0]).toMatchObject({
      id: ws.accountId,
      ticket_prefix: "TKT",
      request_log_retention: "7d",
      default_track_opens: false,
      status: "active",
    });
  });

  it("gets its own account and answers 404 for any other", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    expect((await callJson("GET", `/v1/accounts/${a.accountId}`, { token: a.token })).body.id).toBe(
      a.accountId,
    );
    for (const path of [`/v1/accounts/${b.accountId}`, `/v1/accounts/${b.accountId}/usage`]) {
      const { status, body } = await callJson("GET", path, { token: a.token });
      expect(status).toBe(404);
      expect(body).toEqual({ ...errorBody("Not found", "not_found"), message: expect.any(String) });
    }
    const patch = await call("PATCH", `/v1/accounts/${b.accountId}`, {
      token: a.token,
      body: { name: "Taken over" },
    });
    expect(patch.status).toBe(404);
    const untouched = await env.DB_2.prepare("SELECT name FROM accounts WHERE id = ?")
      .bind(b.accountId)
      .first();
    expect(untouched?.name).not.toBe("Taken over");
  });

  it("lets an admin change the settings", async () => {
    const ws = await seedWorkspace();
    const { status, body } = await callJson("PATCH", `/v1/accounts/${ws.accountId}`, {
      token: ws.token,
      body: {
        name: "Acme Support",
        ticket_prefix: "SUP",
        request_log_retention: "5m",
        default_track_opens: true,
        default_track_clicks: true,
      },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: "Acme Support",
      ticket_prefix: "SUP",
      request_log_retention: "5m",
      default_track_opens: true,
      default_track_clicks: true,
    });
    expect(Date.parse(body.updated_at as string)).toBeGreaterThanOrEqual(
      Date.parse(body.created_at as string),
    );
    const row = await env.DB_2.prepare("SELECT request_log_retention_seconds AS s FROM accounts WHERE id = ?")
      .bind(ws.accountId)
      .first();
    expect(row?.s).toBe(300);
    const far = await callJson("PATCH", `/v1/accounts/${ws.accountId}`, {
      token: ws.token,
      body: { request_log_retention: "90d" },
    });
    expect(far.body.request_log_retention).toBe("90d");
  });

  it.each([
    ["retention under 5 minutes", { request_log_retention: "4m" }],
    ["retention over 90 days", { request_log_retention: "91d" }],
    ["a retention without unit", { request_log_retention: "30" }],
    ["a lowercase ticket prefix", { ticket_prefix: "sup" }],
    ["a plan change", { plan: "enterprise" }],
    ["an empty body", {}],
    ["a non-boolean flag", { default_track_opens: "yes" }],
  ])("answers 400 for %s", async (_case, payload) => {
    const ws = await seedWorkspace();
    const { status, body } = await callJson("PATCH", `/v1/accounts/${ws.accountId}`, {
      token: ws.token,
      body: payload,
    });
    expect(status).toBe(400);
    expect(body.code).toBe("validation_error");
    expect(body.details).toEqual(expect.any(Array));
  });
});

describe("GET /v1/accounts/{id}/usage", () => {
  it("shows every quota with current, limit and percentage", async () => {
    const ws = await seedWorkspace({ plan: "free" });
    const hour = quotaWindow("emails_per_hour", Date.now());
    const day = quotaWindow("emails_per_day", Date.now());
    // The hour window is current; the day window is yesterday's and must count as zero.
    await env.DB_2.prepare(
      "INSERT INTO account_usage (account_id, hour_start, emails_hour, day_start, emails_day, storage_bytes) VALUES (?, ?, ?, ?, ?, ?)",
    )
      .bind(ws.accountId, hour.start, 10, day.start - 86_400_000, 40, 2048)
      .run();

    const { status, body } = await callJson<Record<string, never>>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      {
        token: ws.token,
      },
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      account_id: ws.accountId,
      plan: "free",
      quotas: {
        emails_per_month: { current: 0, limit: 3000, percentage: 0, resets_at: expect.any(String) },
        emails_per_day: { current: 0, limit: 100, percentage: 0, resets_at: expect.any(String) },
        emails_per_hour: {
          current: 10,
          limit: 50,
          percentage: 20,
          resets_at: new Date(hour.resetsAt as number).toISOString(),
        },
        storage_bytes: { current: 2048, limit: 1024 ** 3, percentage: 0, resets_at: null },
        team_members: { current: 0, limit: null, percentage: null, resets_at: null },
      },
      limits: { requests_per_minute: 300, recipients_per_email: 50, email_retention_days: 30 },
    });
  });

  it("applies per-account overrides", async () => {
    const ws = await seedWorkspace({ plan: "starter", overrides: { emails_per_day: 7 } });
    const { body } = await callJson<{ quotas: Record<string, { limit: number }> }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      { token: ws.token },
    );
    expect(body.quotas.emails_per_day?.limit).toBe(7);
    expect(body.quotas.emails_per_month?.limit).toBe(50_000);
  });
});
