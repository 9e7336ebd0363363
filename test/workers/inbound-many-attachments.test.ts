import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_STORED_ATTACHMENTS } from "../../src/inbound/parse";
import { call } from "./helpers";
import { deliver, generatedMail, inboundWorkspace, messagesOf, ticketsOf } from "./inbound-helpers";

/** A message with `count` one-line text attachments, as a careless (or hostile) sender builds it. */
function manyAttachments(to: string, count: number): string {
  const boundary = "----=_Part_many";
  const parts = Array.from(
    { length: count },
    (_, i) =>
      `--${boundary}\r\nContent-Type: text/plain; name="note-${i + 1}.txt"\r\n` +
      `Content-Disposition: attachment; filename="note-${i + 1}.txt"\r\n\r\nnote ${i + 1}\r\n`,
  );
  return generatedMail(
    to,
    "Logs, one file each",
    `multipart/mixed; boundary="${boundary}"`,
    `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe logs are attached.\r\n${parts.join("")}--${boundary}--\r\n`,
  );
}

describe("a mail with thousands of attachments", () => {
  it("is accepted and opens its ticket with a bounded number of attachments; the raw message keeps them all", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = manyAttachments(inbox.emailAddress, 1500);
    // Each stored attachment is an R2 put, and an invocation has 1,000 subrequests: storing all
    // of them failed every retry.
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    const [ticket] = await ticketsOf(ws.token);
    expect(ticket).toMatchObject({ subject: "Logs, one file each", message_count: 1 });
    const [message] = await messagesOf(ws.token, ticket?.id as string);
    expect(MAX_STORED_ATTACHMENTS).toBe(100);
    expect(message?.attachments).toHaveLength(MAX_STORED_ATTACHMENTS);
    // The first ones, in the order the message gives them.
    const names = new Set(message?.attachments.map((a) => a.filename));
    expect(names).toEqual(new Set(Array.from({ length: 100 }, (_, i) => `note-${i + 1}.txt`)));
    expect(message?.body_text?.trim()).toBe("The logs are attached.");

    const kept = await call("GET", `/v1/messages/${message?.id}/raw`, { token: ws.token });
    expect(kept.status).toBe(200);
    const text = await kept.text();
    expect(text.length).toBe(raw.length);
    expect(text).toContain('filename="note-1500.txt"');
    const rows = await env.DB_2.prepare("SELECT count(*) AS n FROM message_attachments WHERE message_id = ?")
      .bind(message?.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(MAX_STORED_ATTACHMENTS);
  });
});
