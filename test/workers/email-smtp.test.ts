import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmail } from "../../src/features/emails/deliver";
import { SmtpSession } from "../../src/mail/transports/smtp/client";
import { receivedContaining, SMTP_TEST_USER } from "../support/smtp-test-env";
import { callJson } from "./helpers";
import { heldEmail, smtpEnv } from "./smtp-env";

const email = (ws: { token: string }, id: string) =>
  callJson<Record<string, unknown>>("GET", `/v1/emails/${id}`, { token: ws.token });

describe("smtp transport", () => {
  it("delivers over STARTTLS with AUTH to the smart host: one transaction per recipient, bcc only in its envelope", async () => {
    const to = ["ada@example.com", "bob@example.com"];
    const { ws, id } = await heldEmail("smart.test", to, ["hidden@example.com"]);
    expect(await deliverEmail(smtpEnv, id)).toEqual({ kind: "done", status: "sent" });
    const messages = await receivedContaining(env.SMTP_TEST.mailboxUrl, `Message-ID: <${id}@smart.test>`);
    expect(messages).toHaveLength(3);
    // Three transactions, each with one RCPT, over at most three connections (one lane each).
    expect(new Set(messages.map((m) => m.session)).size).toBeLessThanOrEqual(3);
    expect(messages.map((m) => m.to).sort()).toEqual([
      ["ada@example.com"],
      ["bob@example.com"],
      ["hidden@example.com"],
    ]);
    for (const message of messages) {
      expect(message).toMatchObject({
        secure: true,
        user: SMTP_TEST_USER.user,
        // VERP: the envelope sender is this recipient's own bounce address.
        from: expect.stringMatching(/^bounces\+[0-9a-z]{54}@smart\.test$/),
        heloName: "worker.test",
      });
      expect(message.raw).toMatch(/^DKIM-Signature:/);
      expect(message.raw.toLowerCase()).not.toContain("hidden@example.com");
    }
    expect(new Set(messages.map((m) => m.from)).size).toBe(3);
    // The same signed bytes in every transaction: one DKIM signature holds for all.
    expect(new Set(messages.map((m) => m.raw)).size).toBe(1);
    expect((await email(ws, id)).body).toMatchObject({
      status: "sent",
      last_response: expect.stringMatching(/^250 /),
    });
  });

  it("clears a refused transaction with RSET, so its connection carries the next ones", async () => {
    const session = await SmtpSession.open({
      host: "localhost",
      port: env.SMTP_TEST.submissionPort,
      security: "starttls",
      auth: SMTP_TEST_USER,
      heloName: "worker.test",
    });
    const marker = crypto.randomUUID();
    const raw = `From: a@example.test\r\nTo: b@example.test\r\nMessage-ID: <${marker}@example.test>\r\nSubject: x\r\n\r\nBody\r\n`;
    const envelopes = ["first@example.com", "nobody@example.test", "last@example.com"].map((to) => ({
      from: "a@example.test",
      to: [to],
    }));
    const { results } = await session.send(envelopes, raw);
    await session.end();
    expect(results.map((r) => (r.ok ? "ok" : `${r.code} ${r.stage}`))).toEqual(["ok", "550 rcpt", "ok"]);
    const messages = await receivedContaining(env.SMTP_TEST.mailboxUrl, marker);
    expect(messages.map((m) => m.to)).toEqual([["first@example.com"], ["last@example.com"]]);
    expect(new Set(messages.map((m) => m.session)).size).toBe(1);
  });

  it("treats a 5xx at RCPT as a hard bounce: the email bounces and the address is suppressed", async () => {
    const { ws, id } = await heldEmail("hard.test", ["nobody@example.test"]);
    expect(await deliverEmail(smtpEnv, id)).toEqual({ kind: "done", status: "bounced" });
    expect((await email(ws, id)).body).toMatchObject({
      status: "bounced",
      last_event: "bounced",
      last_response: expect.stringContaining("550"),
    });
    const suppressions = await callJson<{
      data: Array<{ email: string; reason: string; source_email_id: string }>;
    }>("GET", "/v1/emails/suppressions", { token: ws.token });
    expect(suppressions.body.data).toEqual([
      expect.objectContaining({ email: "nobody@example.test", reason: "hard_bounce", source_email_id: id }),
    ]);
  });

  it("a refused recipient ends its own transaction only: the others are delivered", async () => {
    const { ws, id } = await heldEmail("mixed.test", [
      "first@example.com",
      "nobody@example.test",
      "last@example.com",
    ]);
    expect(await deliverEmail(smtpEnv, id)).toEqual({ kind: "done", status: "sent" });
    const messages = await receivedContaining(env.SMTP_TEST.mailboxUrl, `Message-ID: <${id}@mixed.test>`);
    expect(messages.map((m) => m.to).sort()).toEqual([["first@example.com"], ["last@example.com"]]);
    const body = (await email(ws, id)).body as { recipients: Array<{ address: string; status: string }> };
    expect(body.recipients.map((r) => [r.address, r.status]).sort()).toEqual([
      ["first@example.com", "accepted"],
      ["last@example.com", "accepted"],
      ["nobody@example.test", "rejected"],
    ]);
  });

  it("retries a 4xx with a growing pause, then gives up", async () => {
    const { ws, id } = await heldEmail("soft.test", ["busy@example.test"]);
    const first = await deliverEmail(smtpEnv, id);
    expect(first).toEqual({ kind: "retry", delaySeconds: 30 });
    expect((await email(ws, id)).body).toMatchObject({
      status: "queued",
      last_event: "deferred",
      attempts: 1,
    });
    // Not before its pause is over...
    expect(await deliverEmail(smtpEnv, id)).toEqual({ kind: "skipped" });
    // ...then again and again until the last attempt fails the email.
    let outcome = first;
    for (let now = Date.now() + 31_000; outcome.kind === "retry"; now += 3_600_000)
      outcome = await deliverEmail(smtpEnv, id, now);
    expect(outcome).toEqual({ kind: "done", status: "failed" });
    expect((await email(ws, id)).body).toMatchObject({ status: "failed", attempts: 6 });
  });

  it("retries when the smart host cannot be reached", async () => {
    const { id } = await heldEmail("down.test", ["ada@example.com"]);
    expect((await deliverEmail({ ...smtpEnv, SMTP_PORT: String(env.SMTP_TEST.closedPort) }, id)).kind).toBe(
      "retry",
    );
  });
});
