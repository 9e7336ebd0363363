import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import eximDelay from "../fixtures/inbound/exim-delay-warning.eml?raw";
import qmail from "../fixtures/inbound/qmail-failure-notice.eml?raw";
import { deliver, droppedOf, FIXTURES, fill, ticketsOf } from "./inbound-helpers";
import { emailOf, MAILER_DAEMON, report, reportsOf, sentEmail, suppressionsOf } from "./reports-helpers";

// Each test sends real emails through the queue first; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 30_000 });

/** The bounces recorded for `address` in the account: what the soft-bounce count reads. */
async function bouncesOf(accountId: string, address: string) {
  const { results } = await env.DB_2.prepare("SELECT kind FROM bounces WHERE account_id = ? AND email = ?")
    .bind(accountId, address)
    .all<{ kind: string }>();
  return results.map((r) => r.kind);
}

describe("a plain-text failure notice (no RFC 3464 report) to the bounce address", () => {
  it("qmail 'failure notice': the recipient bounced and is suppressed at once", async () => {
    const sent = await sentEmail(["qmail-gone@example.net"]);
    const raw = report(qmail, sent, "qmail-gone@example.net");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });

    const email = await emailOf(sent.ws.token, sent.id);
    expect(email).toMatchObject({ status: "bounced", last_event: "bounced" });
    expect(email.recipients).toEqual([
      {
        address: "qmail-gone@example.net",
        status: "bounced",
        response: expect.stringContaining("550 Unknown user"),
      },
    ]);
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({
        email: "qmail-gone@example.net",
        reason: "hard_bounce",
        source_email_id: sent.id,
      }),
    ]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => [r.type, r.outcome])).toEqual([
      ["delivery_status", "applied"],
    ]);
  });

  it("Exim's delay warning counts one soft bounce: no suppression, the email shows the delay", async () => {
    const sent = await sentEmail(["exim-slow@example.org"]);
    const raw = report(eximDelay, sent, "exim-slow@example.org");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });

    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({
      status: "sent",
      last_event: "delayed",
      last_response: expect.stringContaining("450 service permits"),
    });
    expect(await bouncesOf(sent.ws.accountId, "exim-slow@example.org")).toEqual(["soft"]);
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
  });

  it("a notice naming nobody is about the recipient the bounce address names", async () => {
    const sent = await sentEmail(["nameless@example.net"]);
    const raw = report(qmail, sent, "");
    expect(raw).not.toContain("nameless@example.net");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "nameless@example.net", reason: "hard_bounce" }),
    ]);
  });
});

describe("RFC 3464 edge cases through the handler", () => {
  it("a recipient group with Status but no Action: failed, suppressed", async () => {
    const sent = await sentEmail(["no-action@example.net"]);
    const raw = report(FIXTURES.dsnHard, sent, "no-action@example.net").replace("Action: failed\r\n", "");
    expect(raw).not.toContain("Action:");
    await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "no-action@example.net", reason: "hard_bounce" }),
    ]);
  });

  it("a report without the per-message group", async () => {
    const sent = await sentEmail(["no-group@example.net"]);
    const raw = report(FIXTURES.dsnHard, sent, "no-group@example.net").replace(
      /Reporting-MTA: [\s\S]*?\r\n\r\n(?=Final-Recipient)/,
      "",
    );
    expect(raw).not.toContain("Reporting-MTA");
    await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
  });

  it("an ARF complaint in multipart/mixed suppresses as a complaint", async () => {
    const sent = await sentEmail(["mixed-angry@example.net"]);
    const raw = report(FIXTURES.arf, sent, "mixed-angry@example.net").replace(
      "multipart/report; report-type=feedback-report;",
      "multipart/mixed;",
    );
    expect(raw).not.toContain("multipart/report");
    await deliver(raw, { from: "staff@fbl.mailbox.example", to: sent.bounce });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "mixed-angry@example.net", reason: "complaint" }),
    ]);
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ last_event: "complained" });
  });
});

describe("never a false report", () => {
  it("an auto-reply to the bounce address changes nothing", async () => {
    const sent = await sentEmail(["away@example.net"]);
    const raw = fill(FIXTURES.autoReply, {
      FROM: "away@example.net",
      TO: sent.bounce,
      IN_REPLY_TO: sent.messageId,
      REFERENCES: sent.messageId,
    });
    expect(await deliver(raw, { from: "away@example.net", to: sent.bounce })).toEqual({
      outcome: "accepted",
    });
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(["unsupported"]);
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent", last_event: "sent" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
  });

  it("an ARF auth-failure report and a DSN with Action delivered, relayed or expanded change nothing", async () => {
    const sent = await sentEmail(["fine@example.net"]);
    const authFailure = report(FIXTURES.arf, sent, "fine@example.net").replace(
      "Feedback-Type: abuse",
      "Feedback-Type: auth-failure",
    );
    await deliver(authFailure, { from: "staff@fbl.mailbox.example", to: sent.bounce });
    for (const action of ["delivered", "relayed", "expanded"]) {
      const raw = report(FIXTURES.dsnHard, sent, "fine@example.net").replace(
        "Action: failed",
        `Action: ${action}`,
      );
      await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce });
    }
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(
      Array(4).fill("informational"),
    );
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent", last_event: "sent" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
    expect(await bouncesOf(sent.ws.accountId, "fine@example.net")).toEqual([]);
  });
});

describe("a plain-text notice sent to an inbox address", () => {
  it("from a mailer daemon, naming an email of the workspace by Message-ID: applied, no ticket", async () => {
    const sent = await sentEmail(["inbox-gone@example.net"]);
    const raw = report(qmail, sent, "inbox-gone@example.net", sent.address);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.address })).toEqual({ outcome: "accepted" });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
    expect(await ticketsOf(sent.ws.token)).toEqual([]);
  });

  it("naming no email of the workspace: handled as inbox mail, as before (an automatic mail opens no ticket)", async () => {
    const sent = await sentEmail(["inbox-kept@example.net"]);
    const raw = fill(qmail, {
      BOUNCE: sent.address,
      RECIPIENT: "inbox-kept@example.net",
      ORIGINAL_ID: "<not-ours@elsewhere.example>",
    });
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.address })).toEqual({ outcome: "accepted" });
    expect(await reportsOf({ rcptTo: sent.address })).toEqual([]);
    expect((await droppedOf(sent.ws.accountId)).map((d) => d.reason)).toEqual(["auto_submitted"]);
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
  });

  it("a customer's administrator, named like a mailer daemon, telling of a disabled account: a ticket, nobody suppressed", async () => {
    const sent = await sentEmail(["colleague@customer.test"]);
    const raw = [
      'From: "IT System Administrator" <it-admin@customer.test>',
      `To: ${sent.address}`,
      "Subject: Undeliverable: Your receipt",
      `Message-ID: <${crypto.randomUUID()}@customer.test>`,
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="admin"',
      "",
      "--admin",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Hello,",
      "",
      "Your message to colleague@customer.test could not be delivered: her account was disabled",
      "when she left us last week. Please write to accounts@customer.test from now on.",
      "",
      "IT System Administrator",
      "--admin",
      "Content-Type: message/rfc822",
      'Content-Disposition: attachment; filename="Your receipt.eml"',
      "",
      sent.content,
      "--admin--",
      "",
    ].join("\r\n");
    expect(await deliver(raw, { from: "it-admin@customer.test", to: sent.address })).toEqual({
      outcome: "accepted",
    });
    expect((await ticketsOf(sent.ws.token)).map((t) => [t.subject, t.customer.email])).toEqual([
      ["Undeliverable: Your receipt", "it-admin@customer.test"],
    ]);
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent", last_event: "sent" });
    expect(await reportsOf({ emailId: sent.id })).toEqual([]);
  });

  it("a customer's mail about an undelivered message, quoting our Message-ID, stays a ticket", async () => {
    const sent = await sentEmail(["customer@example.net"]);
    const raw = report(qmail, sent, "customer@example.net", sent.address)
      .replace(/^From: .*$/m, "From: Ada Lovelace <ada@example.com>")
      .replace("Subject: failure notice", "Subject: Undelivered Mail Returned to Sender?");
    expect(await deliver(raw, { from: "ada@example.com", to: sent.address })).toEqual({
      outcome: "accepted",
    });
    expect(await ticketsOf(sent.ws.token)).toHaveLength(1);
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
  });
});
