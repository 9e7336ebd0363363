import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, seedWorkspace } from "./helpers";

type Invitation = { id: string; email: string };

const invite = (token: string, email: string) =>
  callJson<Invitation>("POST", "/v1/invitations", { token, body: { email, role: "agent" } });
const resend = (token: string, id: string) => callJson("POST", `/v1/invitations/${id}/resend`, { token });

/** As if the invitation's last email left `ms` ago: the resend cooldown is over. */
const sentAgo = (id: string, ms: number) =>
  env.DB_2.prepare("UPDATE invitations SET updated_at = ? WHERE id = ?")
    .bind(Date.now() - ms, id)
    .run();

const systemEmailsOf = async (accountId: string) =>
  (
    await env.DB_2.prepare("SELECT count(*) AS n FROM emails WHERE account_id = ? AND source = 'system'")
      .bind(accountId)
      .first<{ n: number }>()
  )?.n;

const limitBody = (quota: string) => ({
  error: "Limit exceeded",
  code: "limit_exceeded",
  request_id: expect.any(String),
  message: expect.any(String),
  quota,
  current: expect.any(Number),
  limit: expect.any(Number),
  percentage: expect.any(Number),
});

describe("invitation mail limits", { timeout: 60_000 }, () => {
  it("refuses a resend within 60 s of the last email with a 429 and Retry-After", async () => {
    const ws = await seedWorkspace({ plan: "free" });
    const created = await invite(ws.token, "cool@example.com");
    const early = await resend(ws.token, created.body.id);
    expect(early.status).toBe(429);
    expect(early.body).toEqual(limitBody("invitation_resend_cooldown_seconds"));
    const wait = Number(early.res.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    await sentAgo(created.body.id, 61_000);
    expect((await resend(ws.token, created.body.id)).status).toBe(200);
    expect(await systemEmailsOf(ws.accountId)).toBe(2);
  });

  it("allows at most 5 resends of one invitation", async () => {
    const ws = await seedWorkspace({ plan: "free" });
    const created = await invite(ws.token, "often@example.com");
    for (let i = 0; i < 5; i++) {
      await sentAgo(created.body.id, 61_000);
      expect((await resend(ws.token, created.body.id)).status, `resend ${i + 1}`).toBe(200);
    }
    await sentAgo(created.body.id, 61_000);
    const sixth = await resend(ws.token, created.body.id);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual(limitBody("invitation_resends"));
    expect(await systemEmailsOf(ws.accountId)).toBe(6);
  });

  it("sends at most 20 invitation emails per workspace per hour, even to concurrent requests", async () => {
    const ws = await seedWorkspace({ plan: "free" });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => invite(ws.token, `crowd-${i}@example.com`)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.body).toEqual(limitBody("invitation_emails_per_hour"));
    expect(Number(refused?.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await systemEmailsOf(ws.accountId)).toBe(20);
    // A resend is an invitation email too.
    const first = answers.find((a) => a.status === 201)?.body as Invitation;
    await sentAgo(first.id, 61_000);
    expect((await resend(ws.token, first.id)).status).toBe(429);
    // Another workspace has its own hour.
    const other = await seedWorkspace({ plan: "free" });
    expect((await invite(other.token, "elsewhere@example.com")).status).toBe(201);
  });

  it("keeps links out of the workspace name shown in the invitation subject", async () => {
    const ws = await seedWorkspace({ plan: "free" });
    await env.DB_2.prepare("UPDATE accounts SET name = ? WHERE id = ?")
      .bind("You won a prize - claim at scam.test", ws.accountId)
      .run();
    expect((await invite(ws.token, "prize@example.com")).status).toBe(201);
    const row = await env.DB_2.prepare(
      "SELECT subject, text FROM emails WHERE account_id = ? AND source = 'system'",
    )
      .bind(ws.accountId)
      .first<{ subject: string; text: string }>();
    expect(row?.subject).not.toContain("scam.test");
    expect(row?.text).not.toContain("scam.test");
  });
});
