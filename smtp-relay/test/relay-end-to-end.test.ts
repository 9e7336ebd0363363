/**
 * End to end through the running Worker: what a client hands the relay is what the service sends,
 * and every session leaves its trace in GET /v1/accounts/{id}/smtp-logs.
 */
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { api, ctx, eventually, sendFails, startRelay, transport } from "./support/relay";

type Email = Record<string, unknown> & { id: string; status: string };
type LogList = { data: Array<Record<string, unknown>>; pagination: { total: number } };

describe("relay end to end", () => {
  it("delivers Bcc from the envelope only, the attachment's bytes, and X-Track-Opens", async () => {
    const { main } = ctx().workspaces;
    const relay = await startRelay();
    try {
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
      const info = await transport(relay.port, main.token).sendMail({
        from: `Shop <orders@${main.domain}>`,
        to: "Ada <ada@example.com>",
        cc: "grace@example.com",
        bcc: "auditor@example.com",
        subject: "Order 1001 ✓",
        text: "Your order shipped.",
        html: '<p>Your order shipped.</p><img src="cid:logo@shop">',
        headers: { "X-Track-Opens": "true", "X-Entity-Ref-ID": "order-1001" },
        attachments: [
          { filename: "invoice.bin", content: bytes, contentType: "application/octet-stream" },
          { filename: "logo.png", content: Buffer.from("PNG"), cid: "logo@shop", contentType: "image/png" },
        ],
      });
      const id = info.response.split(" ").pop() as string;
      expect(info.envelope.to).toEqual(["ada@example.com", "grace@example.com", "auditor@example.com"]);

      const email = await eventually(async () => {
        const { body } = await api<Email>(`/v1/emails/${id}`, main.token);
        return body.status === "sent" ? body : null;
      });
      expect(email).toMatchObject({
        from: `Shop <orders@${main.domain}>`,
        to: ["Ada <ada@example.com>"],
        cc: ["grace@example.com"],
        bcc: ["auditor@example.com"],
        subject: "Order 1001 ✓",
        track_opens: true,
      });
      const content = await fetch(`${ctx().workerUrl}/v1/emails/${id}/content`, {
        headers: { Authorization: `Bearer ${main.token}` },
      });
      const raw = await content.text();
      expect(raw.toLowerCase()).not.toContain("bcc:");
      expect(raw).not.toContain("auditor@example.com");
      expect(raw).not.toMatch(/x-track-opens/i);
      const parsed = await PostalMime.parse(raw);
      expect(parsed.headers.find((h) => h.key === "x-entity-ref-id")?.value).toBe("order-1001");
      expect(parsed.html).toContain("/t/o/");
      const invoice = parsed.attachments.find((a) => a.filename === "invoice.bin");
      expect(Buffer.from(invoice?.content as ArrayBuffer).equals(bytes)).toBe(true);
      const logo = parsed.attachments.find((a) => a.filename === "logo.png");
      expect(logo?.contentId).toBe("<logo@shop>");
    } finally {
      await relay.close();
    }
  });

  it("records each session: accepted and refused messages, and failed AUTH with a revoked key", async () => {
    const { main } = ctx().workspaces;
    const relay = await startRelay();
    let emailId = "";
    try {
      const client = transport(relay.port, main.token);
      const info = await client.sendMail({
        from: `logs@${main.domain}`,
        to: "ada@example.com",
        bcc: "logged-bcc@example.com",
        subject: "Logged",
        text: "x",
      });
      emailId = info.response.split(" ").pop() as string;
      await sendFails(
        client.sendMail({ from: "logs@nope.test", to: "ada@example.com", subject: "x", text: "x" }),
      );
      await sendFails(
        transport(relay.port, ctx().revokedKey.token).sendMail({
          from: `a@${main.domain}`,
          to: "b@c.co",
          text: "x",
        }),
      );
    } finally {
      await relay.close(); // flushes the log batch
    }
    const logs = await eventually(async () => {
      const { body } = await api<LogList>(`/v1/accounts/${main.accountId}/smtp-logs?limit=100`, main.token);
      const mine = body.data.filter(
        (l) => l.email_id === emailId || l.mail_from === "logs@nope.test" || l.key_id === ctx().revokedKey.id,
      );
      return mine.length >= 3 ? mine : null;
    });
    const accepted = logs.find((l) => l.email_id === emailId);
    expect(accepted).toMatchObject({
      client_ip: "127.0.0.1",
      tls: expect.stringMatching(/^TLSv1\.[23]$/),
      auth: "succeeded",
      key_id: main.keyId,
      key_prefix: main.token.slice(0, 10),
      mail_from: `logs@${main.domain}`,
      rcpt_to: ["ada@example.com", "logged-bcc@example.com"],
      size: expect.any(Number),
      outcome: "accepted",
      reply_code: 250,
    });
    expect(logs.find((l) => l.mail_from === "logs@nope.test")).toMatchObject({
      outcome: "rejected",
      reply_code: 550,
      reply: expect.stringMatching(/^550 5\.7\.1 /),
      email_id: null,
    });
    expect(logs.find((l) => l.key_id === ctx().revokedKey.id)).toMatchObject({
      auth: "failed",
      outcome: "auth_failed",
      reply_code: 535,
      mail_from: null,
    });
  });
});
