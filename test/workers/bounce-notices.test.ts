import { describe, expect, it } from "vitest";
import { parseMail } from "../../src/inbound/parse";
import { readReport } from "../../src/inbound/reports/read-report";
import eximDelay from "../fixtures/inbound/exim-delay-warning.eml?raw";
import qmail from "../fixtures/inbound/qmail-failure-notice.eml?raw";
import exchange2003 from "../fixtures/inbound/sisimai-lhost-exchange2003-01.eml?raw";
import exim05 from "../fixtures/inbound/sisimai-lhost-exim-05.eml?raw";
import gmail from "../fixtures/inbound/sisimai-lhost-gmail-01.eml?raw";
import googleGroups from "../fixtures/inbound/sisimai-lhost-googlegroups-02.eml?raw";
import openSmtpd from "../fixtures/inbound/sisimai-lhost-opensmtpd-17.eml?raw";
import yahoo from "../fixtures/inbound/sisimai-lhost-yahoo-04.eml?raw";
import vacation from "../fixtures/inbound/sisimai-rfc3834-02.eml?raw";
import { FIXTURES, fill } from "./inbound-helpers";

// The classifier on real notices (sisimai's set-of-emails), read the way the email handler does,
// inside workerd: nothing here needs Node.
const read = async (raw: string, envelopeRecipient: string | null = null, inbox = false) =>
  readReport(await parseMail(new TextEncoder().encode(raw.replace(/\r?\n/g, "\r\n"))), envelopeRecipient, {
    inbox,
  });

const QMAIL = {
  BOUNCE: "bounces+token@acme.test",
  RECIPIENT: "gone@example.net",
  ORIGINAL_ID: "<original-1@acme.test>",
};
const DSN = {
  BOUNCE: "bounces+token@acme.test",
  RECIPIENT: "gone@example.net",
  SENDER: "hello@acme.test",
  ORIGINAL_ID: "<original-2@acme.test>",
};

describe("plain-text failure notices", () => {
  it("qmail: the recipient of the notice's text, hard, its reply code, the original's Message-ID", async () => {
    const report = await read(fill(qmail, QMAIL));
    expect(report).toMatchObject({
      type: "delivery_status",
      format: "plain",
      declared: false,
      reportingMta: "mx4.example.jp",
      originalMessageId: "<original-1@acme.test>",
    });
    expect(report?.recipients).toEqual([
      expect.objectContaining({
        address: "gone@example.net",
        action: "failed",
        kind: "hard",
        replyCode: "550",
      }),
    ]);
    expect(report?.recipients[0]?.diagnostic).toContain("550 Unknown user");
  });

  it("Gmail: 550 5.1.1 user unknown, hard; none of the returned original's addresses", async () => {
    const report = await read(gmail);
    expect(report?.recipients).toEqual([
      expect.objectContaining({
        address: "userunknown@example.jp",
        kind: "hard",
        status: "5.1.1",
        replyCode: "550",
      }),
    ]);
  });

  it("Exim: the failed address, not the sender named in `MAIL FROM:<...>`", async () => {
    const report = await read(exim05);
    expect(report?.recipients.map((r) => [r.address, r.kind, r.status])).toEqual([
      ["kijitora@neko.example.co.jp", "hard", "5.1.1"],
    ]);
  });

  it("Exchange 2003: the recipient under 'did not reach', not the quoted To: line", async () => {
    const report = await read(exchange2003);
    expect(report?.recipients.map((r) => [r.address, r.kind])).toEqual([["kijitora@example.jp", "hard"]]);
  });

  it("Yahoo: a full mailbox (5.2.2) is soft", async () => {
    const report = await read(yahoo);
    expect(report?.recipients.map((r) => [r.address, r.kind, r.status])).toEqual([
      ["kijitora@example.co.jp", "soft", "5.2.2"],
    ]);
  });

  it("Google Groups: X-Failed-Recipients names the group, not the greeted sender", async () => {
    const report = await read(googleGroups);
    expect(report?.recipients.map((r) => [r.address, r.kind])).toEqual([
      ["libsisimai@googlegroups.com", "hard"],
    ]);
  });

  it("Exim's delay warning: delayed, soft", async () => {
    const report = await read(fill(eximDelay, QMAIL));
    expect(report?.recipients).toEqual([
      expect.objectContaining({
        address: "gone@example.net",
        action: "delayed",
        kind: "soft",
        replyCode: "450",
      }),
    ]);
  });

  it("OpenSMTPD: the delivery-status part in multipart/mixed, each recipient's detail from the text", async () => {
    const report = await read(openSmtpd);
    expect(report).toMatchObject({ format: "rfc3464", declared: false });
    expect(report?.recipients.map((r) => [r.address, r.kind, r.status])).toEqual([
      ["userunknown@libsisimai.net", "hard", "5.1.1"],
      ["mailboxfull@libsisimai.net", "soft", "5.2.2"],
    ]);
  });

  it("a failure naming no address is about the recipient the bounce address names, else nobody", async () => {
    const nameless = fill(qmail, { ...QMAIL, RECIPIENT: "" });
    expect((await read(nameless, "named@example.net"))?.recipients).toEqual([
      expect.objectContaining({ address: "named@example.net", action: "failed", kind: "hard" }),
    ]);
    const none = await read(nameless);
    expect(none?.format).toBe("plain");
    expect(none?.recipients).toEqual([]);
  });
});

describe("never a false report", () => {
  it("an RFC 3834 auto-reply (real Outlook 'Automatic reply') and a vacation reply are no report", async () => {
    expect(await read(vacation)).toBeNull();
    expect(
      await read(fill(FIXTURES.autoReply, { TO: QMAIL.BOUNCE, IN_REPLY_TO: "<a@b>", REFERENCES: "<a@b>" })),
    ).toBeNull();
  });

  it("ordinary mail is no report, even one that says a message could not be delivered", async () => {
    expect(await read(fill(FIXTURES.plainText, { TO: QMAIL.BOUNCE }))).toBeNull();
    const worried = fill(FIXTURES.plainText, { TO: QMAIL.BOUNCE })
      .replace("Subject: Printer on fire", "Subject: Returned mail?")
      .replace(
        /\r\n\r\n[\s\S]*$/,
        "\r\n\r\nMy order could not be delivered to gone@example.net, please help.\r\n",
      );
    expect(await read(worried)).toBeNull();
  });

  it("a success told in prose by a mailer daemon is no failure", async () => {
    const success = fill(qmail, QMAIL)
      .replace("Subject: failure notice", "Subject: Delivery Status Notification (Success)")
      .replace(
        /Hi\. This is[\s\S]*?(?=--- Below this line)/,
        "Your message was delivered to gone@example.net.\r\n\r\n",
      );
    expect(success).toContain("was delivered to gone@example.net");
    expect(await read(success)).toBeNull();
    expect(
      await read(success.replace("Subject: Delivery Status Notification (Success)", "Subject: Message")),
    ).toBeNull();
  });

  it("on the inbox path, a notice counts only from a mailer daemon quoting the original's Message-ID", async () => {
    expect((await read(fill(qmail, QMAIL), null, true))?.originalMessageId).toBe("<original-1@acme.test>");
    const unquoted = fill(qmail, QMAIL).replace(/^Message-ID: .*\r\n/m, "");
    expect(await read(unquoted, null, true)).toBeNull();
    const fromCustomer = fill(qmail, QMAIL).replace(/^From: .*$/m, "From: Ada <ada@example.com>");
    expect(await read(fromCustomer, null, true)).toBeNull();
  });

  it("ARF auth-failure reports and Action delivered/relayed/expanded act on nobody", async () => {
    const authFailure = fill(FIXTURES.arf, DSN).replace(
      "Feedback-Type: abuse",
      "Feedback-Type: auth-failure",
    );
    expect((await read(authFailure))?.recipients.map((r) => r.kind)).toEqual([null]);
    for (const action of ["delivered", "relayed", "expanded"]) {
      const report = await read(fill(FIXTURES.dsnHard, DSN).replace("Action: failed", `Action: ${action}`));
      expect(report?.recipients.map((r) => [r.address, r.action, r.kind])).toEqual([
        ["gone@example.net", action, null],
      ]);
    }
  });
});

describe("RFC 3464 edge cases", () => {
  it("a recipient group without Action takes it from Status: 5 failed, 4 delayed, 2 delivered", async () => {
    // The remote's reply agrees with the Status, as servers write them.
    const withStatus = (status: string) =>
      read(
        fill(FIXTURES.dsnHard, DSN)
          .replace("Action: failed\r\n", "")
          .replaceAll("5.1.1", status)
          .replaceAll("550", `${status[0]}50`),
      );
    expect((await withStatus("5.1.1"))?.recipients.map((r) => [r.action, r.kind])).toEqual([
      ["failed", "hard"],
    ]);
    expect((await withStatus("4.4.1"))?.recipients.map((r) => [r.action, r.kind])).toEqual([
      ["delayed", "soft"],
    ]);
    expect((await withStatus("2.0.0"))?.recipients.map((r) => [r.action, r.kind])).toEqual([
      ["delivered", null],
    ]);
  });

  it("a report with no per-message group: the first group is a recipient's", async () => {
    const raw = fill(FIXTURES.dsnHard, DSN).replace(/Reporting-MTA: [\s\S]*?\r\n\r\n(?=Final-Recipient)/, "");
    expect(raw).not.toContain("Reporting-MTA");
    const report = await read(raw);
    expect(report?.recipients.map((r) => [r.address, r.kind])).toEqual([["gone@example.net", "hard"]]);
  });

  it("an ARF complaint in multipart/mixed is a complaint", async () => {
    const raw = fill(FIXTURES.arf, DSN).replace(
      "multipart/report; report-type=feedback-report;",
      "multipart/mixed;",
    );
    const report = await read(raw);
    expect(report).toMatchObject({ type: "feedback", format: "arf", declared: false });
    expect(report?.recipients.map((r) => [r.address, r.kind])).toEqual([["gone@example.net", "complaint"]]);
  });

  it("a full mailbox is soft even as 5.2.2", async () => {
    const raw = fill(FIXTURES.dsnHard, DSN).replaceAll("5.1.1", "5.2.2");
    expect((await read(raw))?.recipients.map((r) => [r.status, r.kind])).toEqual([["5.2.2", "soft"]]);
  });
});
