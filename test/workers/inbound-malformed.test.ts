/**
 * Issue 41, item 6: no message may make the email handler throw. A throw is what the sending
 * server takes for a temporary failure: it retries the same message for days and it is never
 * stored. Mail the service cannot read is recorded, with the reason; only a failure of ours (D1,
 * R2: inbound-failure.test.ts) still throws.
 */
import { describe, expect, it, vi } from "vitest";
import { callJson } from "./helpers";
import { deliver, droppedOf, generatedMail, inboundWorkspace, ticketsOf } from "./inbound-helpers";
import { emailOf, MAILER_DAEMON, reportsOf, sentEmail, suppressionsOf } from "./reports-helpers";

// The first test sends a real email through the queue; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 60_000 });

/**
 * A 2.6 MB delivery report whose delivery-status part has no blank line: one field group of
 * megabytes, over the MIME parser's 2 MiB header limit, about `recipient` of `originalId`.
 */
function oneGroupReport(to: string, recipient: string, originalId: string) {
  const filler = Array.from({ length: 40_000 }, (_, i) => `X-Remote-Trace-${i}: ${"t".repeat(50)}`);
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    `To: ${to}`,
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: <${crypto.randomUUID()}@mx.example.net>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="R"',
    "",
    "--R",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--R",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    `Final-Recipient: rfc822; ${recipient}`,
    "Action: failed",
    "Status: 5.1.1",
    "Diagnostic-Code: smtp; 550 5.1.1 User unknown",
    ...filler,
    "--R",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${originalId}`,
    "",
    "--R--",
    "",
  ].join("\r\n");
}

interface ListedReport {
  kind: string;
  email_id: string | null;
  recipient: string | null;
  action: string;
}

const listedReports = async (token: string) =>
  (await callJson<{ data: ListedReport[] }>("GET", "/v1/mail-reports", { token })).body.data;

describe("a 2.6 MB report whose delivery-status part has no blank line", () => {
  it("to the bounce address: accepted and applied, not thrown back for a retry", async () => {
    const sent = await sentEmail(["one-group@example.net"]);
    const raw = oneGroupReport(sent.bounce, "one-group@example.net", sent.messageId);
    expect(raw.length).toBeGreaterThan(2_600_000);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "one-group@example.net", reason: "hard_bounce" }),
    ]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(["applied"]);
  });

  it("to an inbox: accepted and recorded in the inbox's workspace, never a ticket", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = oneGroupReport(inbox.emailAddress, "someone@example.net", "<not-ours@elsewhere.example>");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: inbox.emailAddress })).toEqual({
      outcome: "accepted",
    });
    expect(await listedReports(ws.token)).toEqual([
      expect.objectContaining({ kind: "bounce", email_id: null, recipient: "someone@example.net" }),
    ]);
    expect(await ticketsOf(ws.token)).toEqual([]);
  });
});

describe("headers whose size the handler's own reads did not bound", () => {
  it("an X-Loop naming 500 addresses: accepted as a customer's mail, not a D1 error on every retry", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const loops = Array.from({ length: 500 }, (_, i) => `list${i}@lists.example.org`).join(", ");
    const raw = generatedMail(inbox.emailAddress, "Printer on fire", "text/plain", "It is smoking.").replace(
      "MIME-Version: 1.0",
      `X-Loop: ${loops}\r\nMIME-Version: 1.0`,
    );
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect((await ticketsOf(ws.token)).map((t) => t.subject)).toEqual(["Printer on fire"]);
    expect(await droppedOf(ws.accountId)).toEqual([]);
  });
});
