import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, eventually, sendingWorkspace } from "./helpers";

type Email = Record<string, unknown> & { id: string; status: string };

async function waitForStatus(token: string, id: string, status: string) {
  return eventually(async () => {
    const { body } = await callJson<Email>("GET", `/v1/emails/${id}`, { token });
    return body.status === status ? body : null;
  });
}

describe("POST /v1/emails", () => {
  it("sends through the queue and keeps the built, signed MIME", async () => {
    const ws = await sendingWorkspace("send.test");
    const bytes = crypto.getRandomValues(new Uint8Array(5000));
    const { status, body } = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "Acme <hello@send.test>",
        to: "ada@example.com",
        cc: ["grace@example.com"],
        bcc: "secret@example.com",
        reply_to: "support@send.test",
        subject: "Your receipt",
        text: "Thanks!",
        html: "<p>Thanks!</p>",
        headers: { "X-Entity-Ref-ID": "r-1" },
        tags: [{ name: "category", value: "receipt" }],
        attachments: [
          {
            filename: "receipt.bin",
            content: btoa(String.fromCharCode(...bytes)),
            content_type: "application/octet-stream",
          },
        ],
      },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      id: expect.stringMatching(/^eml_/),
      status: "queued",
      scheduled_at: null,
      created_at: expect.any(String),
    });

    const sent = await waitForStatus(ws.token, body.id, "sent");
    expect(sent).toMatchObject({
      object: "email",
      from: "Acme <hello@send.test>",
      to: ["ada@example.com"],
      bcc: ["secret@example.com"],
      last_event: "sent",
      tags: [{ name: "category", value: "receipt" }],
      attachments: [
        { filename: "receipt.bin", content_type: "application/octet-stream", content_id: null, size: 5000 },
      ],
    });
    expect(sent.message_id).toBe(`<${body.id}@send.test>`);

    const content = await call("GET", `/v1/emails/${body.id}/content`, { token: ws.token });
    expect(content.headers.get("Content-Type")).toBe("message/rfc822");
    const raw = await content.text();
    // The bytes every recipient's copy shares: the signature first; each copy's Return-Path is its own.
    expect(raw).toMatch(
      /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=send\.test; s=sm[0-9a-z]+;/,
    );
    expect(raw.toLowerCase()).not.toContain("bcc:");
    expect(raw).not.toContain("secret@example.com");
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe("Your receipt");
    expect(parsed.messageId).toBe(`<${body.id}@send.test>`);
    expect(parsed.headers.find((h) => h.key === "x-entity-ref-id")?.value).toBe("r-1");
    expect(parsed.attachments).toHaveLength(1);
    expect(new Uint8Array(parsed.attachments[0]?.content as ArrayBuffer)).toEqual(bytes);
  });

  it("refuses an unverified sender domain with 403, domain and help", async () => {
    const ws = await sendingWorkspace("verified.test");
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: "a@other.test", to: "b@example.com", subject: "x", text: "x" },
    });
    expect(status).toBe(403);
    expect(body).toEqual({
      ...errorBody("Sender domain not verified", "domain_not_verified"),
      message: expect.any(String),
      domain: "other.test",
      help: expect.stringContaining("POST /v1/connections"),
    });
  });

  it("answers 400 with details for bad input", async () => {
    const ws = await sendingWorkspace("bad.test");
    for (const payload of [
      { from: "a@bad.test", to: "not-an-address", subject: "x", text: "x" },
      { from: "a@bad.test", to: "b@example.com", subject: "x" },
      { from: "a@bad.test", to: "b@example.com", subject: "x", text: "x", headers: { Bcc: "c@example.com" } },
      {
        from: "a@bad.test",
        to: "b@example.com",
        subject: "x",
        text: "x",
        scheduled_at: new Date(Date.now() + 31 * 86_400_000).toISOString(),
      },
      {
        from: "a@bad.test",
        to: "b@example.com",
        subject: "x",
        text: "x",
        attachments: [{ filename: "a", content: "***" }],
      },
    ]) {
      const { status, body } = await callJson("POST", "/v1/emails", { token: ws.token, body: payload });
      expect(status, JSON.stringify(payload)).toBe(400);
      expect(body.details).toEqual(expect.any(Array));
    }
  });

  it("answers 429 Limit exceeded for too many recipients and for a spent quota", async () => {
    const ws = await sendingWorkspace("quota.test", { plan: "free", overrides: { emails_per_day: 1 } });
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    const over = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: "a@quota.test", to: many, subject: "x", text: "x" },
    });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      ...errorBody("Limit exceeded", "limit_exceeded"),
      message: expect.any(String),
      quota: "recipients_per_email",
      current: 51,
      limit: 50,
      percentage: 102,
      recommended_plan: "pro",
    });

    const send = () =>
      callJson("POST", "/v1/emails", {
        token: ws.token,
        body: { from: "a@quota.test", to: "b@example.com", subject: "x", text: "x" },
      });
    expect((await send()).status).toBe(200);
    const spent = await send();
    expect(spent.status).toBe(429);
    expect(spent.body).toMatchObject({
      error: "Limit exceeded",
      current: 1,
      limit: 1,
      percentage: 100,
      recommended_plan: "free",
    });
  });

  it("never overshoots a quota under concurrent sends", async () => {
    const ws = await sendingWorkspace("race.test", { overrides: { emails_per_hour: 5 } });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("POST", "/v1/emails", {
          token: ws.token,
          body: { from: "a@race.test", to: "b@example.com", subject: "x", text: "x" },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    const usage = await callJson<{ quotas: { emails_per_hour: { current: number } } }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      { token: ws.token },
    );
    expect(usage.body.quotas.emails_per_hour.current).toBe(5);
  });

  it("refuses a suppressed recipient anywhere in to/cc/bcc with 422 and sends nothing", async () => {
    const ws = await sendingWorkspace("supp.test");
    await call("POST", "/v1/emails/suppressions", { token: ws.token, body: { email: "Gone@Example.com" } });
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: "a@supp.test", to: "ok@example.com", bcc: ["gone@example.com"], subject: "x", text: "x" },
    });
    expect(status).toBe(422);
    expect(body).toEqual({
      ...errorBody("Recipient suppressed", "recipient_suppressed"),
      message: expect.any(String),
      suppressed: ["gone@example.com"],
    });
    const list = await callJson<{ pagination: { total: number } }>("GET", "/v1/emails", { token: ws.token });
    expect(list.body.pagination.total).toBe(0);
  });

  it("answers 413 when the built message would exceed 25 MB", async () => {
    const ws = await sendingWorkspace("big.test");
    const content = "A".repeat(Math.ceil((26 * 1024 * 1024) / 3) * 4);
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "a@big.test",
        to: "b@example.com",
        subject: "x",
        text: "x",
        attachments: [{ filename: "big.bin", content }],
      },
    });
    expect(status).toBe(413);
    expect(body).toMatchObject({ error: "Message too large", code: "message_too_large" });
  });
});

describe("Idempotency-Key", () => {
  it("replays the same email for the same body and refuses another body with 409", async () => {
    const ws = await sendingWorkspace("idem.test");
    const payload = { from: "a@idem.test", to: "b@example.com", subject: "x", text: "x" };
    const headers = { "Idempotency-Key": "order-42" };
    const first = await callJson<Email>("POST", "/v1/emails", { token: ws.token, body: payload, headers });
    const again = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: { ...payload },
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const concurrent = await Promise.all(
      [1, 2, 3].map(() =>
        callJson<Email>("POST", "/v1/emails", {
          token: ws.token,
          body: payload,
          headers: { "Idempotency-Key": "race" },
        }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.body.id)).size).toBe(1);
    const other = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { ...payload, subject: "y" },
      headers,
    });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("idempotency_key_reused");
    const list = await callJson<{ pagination: { total: number } }>("GET", "/v1/emails", { token: ws.token });
    expect(list.body.pagination.total).toBe(2);
  });
});
