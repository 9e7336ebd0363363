import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it, vi } from "vitest";
import { callJson, eventsOf } from "./helpers";
import { deliver, FIXTURES, fill, ticketsOf } from "./inbound-helpers";
import {
  emailOf,
  MAILER_DAEMON,
  report,
  reportsOf,
  returnPathOf,
  sentEmail,
  setUp,
  suppressionsOf,
} from "./reports-helpers";
import { receivedAt } from "./webhook-helpers";

// Each test sends real emails through the queue first; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 30_000 });

/** Nothing reached the loopback receiver and no event was recorded after `before` events. */
async function expectNoEvents(sent: Awaited<ReturnType<typeof setUp>>, before: number) {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect((await eventsOf(sent.ws.accountId)).length).toBe(before);
  expect(await receivedAt(sent.hook.path)).toEqual([]);
}

describe("VERP: every outbound email's Return-Path names it and its recipient", () => {
  it("is bounces+<token>@<sender domain>, on top of each captured copy, outside the DKIM signature", async () => {
    const sent = await sentEmail();
    expect(sent.bounce).toMatch(new RegExp(`^bounces\\+[0-9a-z]{54}@${sent.domain.replace(".", "\\.")}$`));
    // The local part stays within the 64 octets SMTP allows (RFC 5321 §4.5.3.1.1).
    expect(sent.bounce.indexOf("@")).toBeLessThanOrEqual(64);
    const parsed = await PostalMime.parse(sent.content);
    const signed = parsed.headers.find((h) => h.key === "dkim-signature")?.value.replace(/\s+/g, "") ?? "";
    expect(signed).toMatch(/h=[^;]+/);
    expect(/h=([^;]+)/.exec(signed)?.[1]?.toLowerCase()).not.toContain("return-path");
    // Another email gets another address; an altered one is refused as permanent.
    const other = await sentEmail(["someone@example.net"]);
    expect(other.bounce).not.toBe(sent.bounce);
    const altered = sent.bounce.replace(/\+(.)/, (_, c: string) => `+${c === "0" ? "1" : "0"}`);
    const refused = await deliver(report(FIXTURES.dsnHard, sent, "gone@example.net", altered), {
      from: MAILER_DAEMON,
      to: altered,
    });
    expect(refused).toEqual({ outcome: "rejected", reason: expect.stringContaining("is not valid") });
  });
});

describe("a delivery status notification (RFC 3464) to the bounce address", () => {
  it("Postfix hard bounce (5.1.1): the recipient bounced and is suppressed at once; the email shows the diagnostic; no event", async () => {
    const sent = await sentEmail();
    const before = (await eventsOf(sent.ws.accountId)).length;
    const raw = report(FIXTURES.dsnHard, sent, "gone@example.net");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });

    const email = await emailOf(sent.ws.token, sent.id);
    expect(email).toMatchObject({
      status: "bounced",
      last_event: "bounced",
      last_response: expect.stringContaining("5.1.1 failed smtp; 550 5.1.1"),
    });
    expect(email.recipients).toEqual([
      {
        address: "gone@example.net",
        status: "bounced",
        response: expect.stringContaining("User unknown in virtual mailbox table"),
      },
    ]);
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "gone@example.net", reason: "hard_bounce", source_email_id: sent.id }),
    ]);
    const again = await callJson("POST", "/v1/emails", {
      token: sent.ws.token,
      body: { from: `hello@${sent.domain}`, to: "gone@example.net", subject: "x", text: "x" },
    });
    expect(again.status).toBe(422);

    const [record] = await reportsOf({ emailId: sent.id });
    expect(record).toMatchObject({
      account_id: sent.ws.accountId,
      type: "delivery_status",
      outcome: "applied",
    });
    expect(await (await env.FILES.get(record?.raw_key ?? ""))?.text()).toBe(raw);
    expect(await ticketsOf(sent.ws.token)).toEqual([]);
    await expectNoEvents(sent, before);
  });

  it("Postfix delay (4.4.1): a soft bounce; the status stays sent; the third within 7 days suppresses", async () => {
    const setup = await setUp();
    const before = (await eventsOf(setup.ws.accountId)).length;
    for (let n = 1; n <= 3; n++) {
      const sent = await sentEmail(["slow@example.org"], setup);
      const raw = report(FIXTURES.dsnSoft, sent, "slow@example.org");
      expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
      // The same notice twice counts once.
      expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
      const email = await emailOf(setup.ws.token, sent.id);
      expect(email).toMatchObject({
        status: "sent",
        last_event: "delayed",
        last_response: expect.stringContaining("4.4.1 delayed X-Postfix; connect to mx.example.org"),
      });
      expect(email.recipients[0]).toMatchObject({
        status: "accepted",
        response: expect.stringContaining("4.4.1"),
      });
      const suppressed = (await suppressionsOf(setup.ws.token)).map((s) => [s.email, s.reason]);
      expect(suppressed).toEqual(n < 3 ? [] : [["slow@example.org", "soft_bounces"]]);
    }
    await expectNoEvents(setup, before);
  });

  it("marks only the recipient it names: the email bounces once every recipient has", async () => {
    const sent = await sentEmail(["one@example.net", "two@example.net"]);
    const second = await returnPathOf(sent.id, "two@example.net");
    await deliver(report(FIXTURES.dsnHard, sent, "one@example.net"), {
      from: MAILER_DAEMON,
      to: sent.bounce,
    });
    let email = await emailOf(sent.ws.token, sent.id);
    expect(email).toMatchObject({ status: "sent", last_event: "bounced" });
    expect(email.recipients.map((r) => [r.address, r.status])).toEqual([
      ["one@example.net", "bounced"],
      ["two@example.net", "accepted"],
    ]);
    await deliver(report(FIXTURES.dsnHard, sent, "two@example.net", second), {
      from: MAILER_DAEMON,
      to: second,
    });
    email = await emailOf(sent.ws.token, sent.id);
    expect(email.status).toBe("bounced");
  });

  it("two notices for two recipients at once leave the email bounced, not lost", async () => {
    const sent = await sentEmail(["a1@example.net", "a2@example.net"]);
    await Promise.all(
      ["a1@example.net", "a2@example.net"].map(async (r) => {
        const own = await returnPathOf(sent.id, r);
        return deliver(report(FIXTURES.dsnHard, sent, r, own), { from: MAILER_DAEMON, to: own });
      }),
    );
    const email = await emailOf(sent.ws.token, sent.id);
    expect(email.status).toBe("bounced");
    expect((await suppressionsOf(sent.ws.token)).map((s) => s.email).sort()).toEqual([
      "a1@example.net",
      "a2@example.net",
    ]);
  });

  it("records and ignores a notice about someone the email was not sent to", async () => {
    const sent = await sentEmail(["kept@example.net"]);
    const raw = report(FIXTURES.dsnHard, sent, "stranger@example.net");
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent", last_event: "sent" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => r.outcome)).toEqual(["unmatched"]);
  });

  it("records mail to the bounce address that is no report, and changes nothing", async () => {
    const sent = await sentEmail(["kept2@example.net"]);
    const raw = fill(FIXTURES.plainText, { TO: sent.bounce });
    expect(await deliver(raw, { to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect((await reportsOf({ emailId: sent.id })).map((r) => [r.type, r.outcome])).toEqual([
      [null, "unsupported"],
    ]);
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent" });
  });
});

describe("a complaint (ARF, RFC 5965)", () => {
  it("suppresses the recipient with reason complaint; the email stays sent, last_event complained; no event", async () => {
    const sent = await sentEmail(["angry@example.net"]);
    const before = (await eventsOf(sent.ws.accountId)).length;
    const raw = report(FIXTURES.arf, sent, "angry@example.net");
    expect(await deliver(raw, { from: "staff@fbl.mailbox.example", to: sent.bounce })).toEqual({
      outcome: "accepted",
    });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent", last_event: "complained" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "angry@example.net", reason: "complaint", source_email_id: sent.id }),
    ]);
    expect((await reportsOf({ emailId: sent.id })).map((r) => [r.type, r.outcome])).toEqual([
      ["feedback", "applied"],
    ]);
    await expectNoEvents(sent, before);
  });
});

describe("a report sent to an inbox address", () => {
  it("is matched by the returned original's Message-ID in the workspace, and never opens a ticket", async () => {
    const sent = await sentEmail(["old@example.net"]);
    const raw = report(FIXTURES.dsnHard, sent, "old@example.net", sent.address);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.address })).toEqual({ outcome: "accepted" });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
    expect(await ticketsOf(sent.ws.token)).toEqual([]);
  });

  it("to an address the directory still names but its inbox no longer has: refused as unknown, nothing recorded", async () => {
    const sent = await sentEmail(["old@example.net"]);
    // The shard changed first (the directory catches up after): the shard has the last word.
    await env.DB_2.prepare(
      "UPDATE inboxes SET email_address = 'moved-' || email_address WHERE email_address = ?",
    )
      .bind(sent.address)
      .run();
    const raw = report(FIXTURES.dsnHard, sent, "old@example.net", sent.address);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: sent.address })).toEqual({
      outcome: "rejected",
      reason: expect.stringContaining(`No mailbox ${sent.address} here`),
    });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "sent" });
    expect(await reportsOf({ rcptTo: sent.address })).toEqual([]);
    expect((await env.FILES.list({ prefix: `inbound/${sent.ws.accountId}/` })).objects).toEqual([]);
  });

  it("naming no email of this workspace (another's, or none): recorded in the receiving workspace, listed there, ignored", async () => {
    const theirs = await sentEmail(["theirs@example.net"]);
    const ours = await setUp();
    const raw = report(FIXTURES.dsnHard, theirs, "theirs@example.net", ours.address);
    expect(await deliver(raw, { from: MAILER_DAEMON, to: ours.address })).toEqual({ outcome: "accepted" });
    const elsewhere = { ...theirs, messageId: "<nobody@elsewhere.example>" };
    const none = report(FIXTURES.dsnHard, elsewhere, "x@example.net", ours.address);
    expect(await deliver(none, { from: MAILER_DAEMON, to: ours.address })).toEqual({ outcome: "accepted" });
    expect(await emailOf(theirs.ws.token, theirs.id)).toMatchObject({ status: "sent" });
    expect(await suppressionsOf(theirs.ws.token)).toEqual([]);
    expect(await suppressionsOf(ours.ws.token)).toEqual([]);
    expect(await ticketsOf(ours.ws.token)).toEqual([]);
    const records = await reportsOf({ rcptTo: ours.address });
    expect(records.map((r) => [r.account_id, r.email_id, r.outcome])).toEqual([
      [ours.ws.accountId, null, "unmatched"],
      [ours.ws.accountId, null, "unmatched"],
    ]);
    // Listed to the workspace whose inbox received them, with why nothing changed; never to the other.
    const listed = async (token: string) =>
      (
        await callJson<{
          data: Array<{ kind: string; email_id: string | null; recipient: string; action: string }>;
        }>("GET", "/v1/mail-reports", { token })
      ).body.data.map((r) => [r.kind, r.email_id, r.recipient, r.action]);
    expect(await listed(ours.ws.token)).toEqual([
      ["bounce", null, "x@example.net", "ignored"],
      ["bounce", null, "theirs@example.net", "ignored"],
    ]);
    expect(await listed(theirs.ws.token)).toEqual([]);
  });
});
