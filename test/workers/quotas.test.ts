import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reserveQuota } from "../../src/features/usage/usage.service";
import { limitsFor } from "../../src/lib/plans";
import { call, callJson, db, eventually, seedInbox, sendingWorkspace } from "./helpers";

const QUOTA_FIELDS = {
  error: "Limit exceeded",
  current: expect.any(Number),
  limit: expect.any(Number),
  percentage: expect.any(Number),
  recommended_plan: expect.any(String),
};

const usageOf = async (ws: { accountId: string; token: string }) =>
  (
    await callJson<{ quotas: Record<string, { current: number; limit: number | null }> }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      { token: ws.token },
    )
  ).body.quotas;

const attachment = (bytes: number) => ({ filename: "blob.bin", content: btoa("x".repeat(bytes)) });

describe("a quota reached under concurrency", () => {
  it("answers every 429 with current, limit, percentage and recommended_plan", async () => {
    const ws = await sendingWorkspace("fields.test", { overrides: { emails_per_hour: 3 } });
    const body = { from: "a@fields.test", to: "b@example.com", subject: "x", text: "x" };
    // Requests sharing a key give their reservation back when their twin wins: the moment a
    // refused reservation used to find room on its second look and answer a bare 429.
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        call("POST", "/v1/emails", { token: ws.token, body, headers: { "Idempotency-Key": "same" } }),
      ),
      ...Array.from({ length: 8 }, () => call("POST", "/v1/emails", { token: ws.token, body })),
    ]);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(await answer.json()).toMatchObject(QUOTA_FIELDS);
    expect((await usageOf(ws)).emails_per_hour?.current).toBeLessThanOrEqual(3);
  });

  it("tries again when a refused reservation finds room on a second look", async () => {
    const ws = await sendingWorkspace("retry.test", { overrides: { emails_per_hour: 1 } });
    const limits = limitsFor("enterprise", { emails_per_hour: 1 });
    const held = await reserveQuota(db(), ws.accountId, limits, { emails: 1, bytes: 0 }, Date.now());
    // The holder gives its reservation back while a second one is being refused.
    const second = reserveQuota(db(), ws.accountId, limits, { emails: 1, bytes: 0 }, Date.now());
    await held.release();
    await expect(second).resolves.toHaveProperty("release");
  });
});

describe("storage quota", () => {
  it("counts attachment bytes and built messages, and refuses what would pass the limit with 429", async () => {
    const ws = await sendingWorkspace("store.test", { overrides: { storage_bytes: 200_000 } });
    const send = (bytes: number) =>
      callJson<{ id: string }>("POST", "/v1/emails", {
        token: ws.token,
        body: {
          from: "a@store.test",
          to: "b@example.com",
          subject: "x",
          text: "x",
          attachments: [attachment(bytes)],
        },
      });
    const first = await send(60_000);
    expect(first.status).toBe(200);
    expect((await usageOf(ws)).storage_bytes?.current).toBeGreaterThanOrEqual(60_000);
    await eventually(
      async () =>
        (await callJson<{ status: string }>("GET", `/v1/emails/${first.body.id}`, { token: ws.token })).body
          .status === "sent",
    );
    // Once built, the email counts its attachment and its message as kept in R2.
    const message = await env.FILES.head(`emails/${first.body.id}/message.eml`);
    expect((await usageOf(ws)).storage_bytes?.current).toBe(60_000 + (message?.size ?? 0));

    const refused = await send(150_000);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ ...QUOTA_FIELDS, quota: "storage_bytes", limit: 200_000 });
  });

  it("gives back what was reserved for a message that will never be built", async () => {
    const ws = await sendingWorkspace("unbuilt.test", { overrides: { storage_bytes: 1_000_000 } });
    const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "a@unbuilt.test",
        to: "b@example.com",
        subject: "x",
        text: "x",
        attachments: [attachment(30_000)],
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect((await usageOf(ws)).storage_bytes?.current).toBeGreaterThan(30_000);
    expect((await call("POST", `/v1/emails/${body.id}/cancel`, { token: ws.token })).status).toBe(200);
    // The attachment stays in R2 (and counted); the message it would have been is not.
    expect((await usageOf(ws)).storage_bytes?.current).toBe(30_000);
  });

  it("counts a note's attachments and gives them back when the ticket is deleted", async () => {
    const domain = `notes-${crypto.randomUUID().slice(0, 8)}.test`;
    const ws = await sendingWorkspace(domain, { overrides: { storage_bytes: 100_000 } });
    const inbox = await seedInbox(ws.accountId, `help@${domain}`);
    const ticket = await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "c@example.com" }, subject: "Files" },
    });
    const note = (bytes: number) =>
      call("POST", `/v1/tickets/${ticket.body.id}/messages`, {
        token: ws.token,
        body: { type: "note", body_text: "see file", attachments: [attachment(bytes)] },
      });
    expect((await note(70_000)).status).toBe(201);
    expect((await usageOf(ws)).storage_bytes?.current).toBe(70_000);
    const refused = await note(40_000);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ ...QUOTA_FIELDS, quota: "storage_bytes" });

    await call("DELETE", `/v1/tickets/${ticket.body.id}`, { token: ws.token });
    expect((await usageOf(ws)).storage_bytes?.current).toBe(0);
  });
});
