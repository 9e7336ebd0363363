import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { signedIdToken } from "../../src/mail/signed-id-token";
import { deliver, FIXTURES } from "./inbound-helpers";
import {
  emailOf,
  MAILER_DAEMON,
  report,
  reportsOf,
  returnPathOf,
  sentEmail,
  suppressionsOf,
} from "./reports-helpers";

// Each test sends real emails through the queue first; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 30_000 });

const TO = "reader@example.net";
const BCC = "hidden@example.net";

/** The email's one report was recorded, changed nothing, and says why `address` was ignored. */
async function expectIgnored(emailId: string, address: string, reason: string) {
  const [record] = await reportsOf({ emailId });
  expect(record?.outcome).toBe("unmatched");
  expect(JSON.parse(record?.detail ?? "[]")).toEqual([
    expect.objectContaining({ address, counted: false, ignored: reason }),
  ]);
}

describe("per-recipient bounce addresses: a report changes only the recipient its token names", () => {
  it("a To: recipient's forged DSN naming the Bcc recipient, sent to their own Return-Path, changes nothing for the Bcc", async () => {
    const sent = await sentEmail([TO], undefined, [BCC]);
    const theirs = await returnPathOf(sent.id, TO);
    expect(theirs).toMatch(/^bounces\+/);
    const forged = report(FIXTURES.dsnHard, sent, BCC, theirs);
    expect(await deliver(forged, { from: MAILER_DAEMON, to: theirs })).toEqual({ outcome: "accepted" });

    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
    const email = await emailOf(sent.ws.token, sent.id);
    expect(email).toMatchObject({ status: "sent", last_event: "sent" });
    expect(email.recipients.map((r) => [r.address, r.status]).sort()).toEqual([
      [BCC, "accepted"],
      [TO, "accepted"],
    ]);
    await expectIgnored(sent.id, BCC, "other_recipient_than_token");
  });

  it("a genuine DSN through the Bcc recipient's own token suppresses that recipient only", async () => {
    const sent = await sentEmail([TO], undefined, [BCC]);
    const own = await returnPathOf(sent.id, BCC);
    expect(own).not.toBe(await returnPathOf(sent.id, TO));
    const genuine = report(FIXTURES.dsnHard, sent, BCC, own);
    expect(await deliver(genuine, { from: MAILER_DAEMON, to: own })).toEqual({ outcome: "accepted" });

    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: BCC, reason: "hard_bounce", source_email_id: sent.id }),
    ]);
    const email = await emailOf(sent.ws.token, sent.id);
    expect(email.recipients.map((r) => [r.address, r.status]).sort()).toEqual([
      [BCC, "bounced"],
      [TO, "accepted"],
    ]);
  });
});

/** The bounce address mail got before per-recipient envelopes: its token names the email only. */
async function emailOnlyBounceAddress(emailId: string, domain: string) {
  return `bounces+${await signedIdToken("bounce-token", "eml").sign(env.ENCRYPTION_KEY, emailId)}@${domain}`;
}

describe("keys that name the email only", () => {
  it("an old email-only token still applies to a single-recipient email", async () => {
    const sent = await sentEmail(["solo@example.net"]);
    const old = await emailOnlyBounceAddress(sent.id, sent.domain);
    const raw = report(FIXTURES.dsnHard, sent, "solo@example.net", old);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: old })).toEqual({ outcome: "accepted" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "solo@example.net", reason: "hard_bounce" }),
    ]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(["applied"]);
  });

  it("an old email-only token changes nothing for an email with several recipients, recorded as such", async () => {
    const sent = await sentEmail([TO], undefined, [BCC]);
    const old = await emailOnlyBounceAddress(sent.id, sent.domain);
    const raw = report(FIXTURES.dsnHard, sent, BCC, old);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: old })).toEqual({ outcome: "accepted" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
    await expectIgnored(sent.id, BCC, "key_names_no_recipient");
  });

  it("a report to an inbox, matched by the original's Message-ID, changes nothing for several recipients", async () => {
    const sent = await sentEmail([TO], undefined, [BCC]);
    const raw = report(FIXTURES.dsnHard, sent, BCC, sent.address);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.address })).toEqual({ outcome: "accepted" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(["unmatched"]);
  });
});

describe("complaints through a recipient's own token", () => {
  it("an ARF report naming no Original-Rcpt-To is about the copy whose token it came back to, a Bcc one too", async () => {
    const sent = await sentEmail([TO], undefined, [BCC]);
    const own = await returnPathOf(sent.id, BCC);
    // The Bcc recipient's copy carries the original's To: (the other recipient) and no complainant.
    const arf = report(FIXTURES.arf, sent, TO, own).replace(/^Original-Rcpt-To: .*\r?\n/m, "");
    expect(arf).not.toContain("Original-Rcpt-To");
    expect(await deliver(arf, { from: MAILER_DAEMON, to: own })).toEqual({ outcome: "accepted" });

    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: BCC, reason: "complaint", source_email_id: sent.id }),
    ]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(["applied"]);
  });
});
