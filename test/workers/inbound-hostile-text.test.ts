/**
 * Issue 41, item 5: every reader of inbound text is linear in the message, whoever sends it. Each
 * shape here cost seconds (one of them minutes) before the readers were bounded; each must now be
 * read in well under a second. The bounds are generous for a loaded 2-core machine: the readers
 * take a few milliseconds on these shapes, and the shapes are sized so that the quadratic readers
 * they were built against take several seconds.
 */

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { bodiesOf } from "../../src/inbound/bodies";
import { handleEmail } from "../../src/inbound/handler";
import { type InboundMail, parseMail } from "../../src/inbound/parse";
import { stripQuoted } from "../../src/inbound/quoted";
import { readReport } from "../../src/inbound/reports/read-report";
import { droppedOf, emailMessage, generatedMail, inboundWorkspace } from "./inbound-helpers";
import { MAILER_DAEMON } from "./reports-helpers";

// A reader that is still quadratic would take seconds to minutes: let it fail on the bound, not time out.
vi.setConfig({ testTimeout: 300_000 });

/** "Well under a second" for one reader, with room for a loaded machine. */
const READER_MS = 1_000;
/** The whole handler (R2 put, D1 reads and writes) around the same reading. */
const HANDLER_MS = 2_500;

async function timed<T>(work: () => Promise<T> | T): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/**
 * The email() handler's own time for `raw`, as the runtime calls it (the harness's copy of the
 * parsed headers is made before the clock starts), and what became of the mail. A throw fails the test.
 */
async function handlerTime(raw: string, envelope: { from?: string; to: string }) {
  const { message } = await emailMessage(raw, envelope);
  const execution = createExecutionContext();
  const [outcome, ms] = await timed(() =>
    handleEmail(message as unknown as ForwardableEmailMessage, env, execution),
  );
  await waitOnExecutionContext(execution);
  return { kind: outcome.kind, ms };
}

const crlf = (text: string) => text.replace(/\r?\n/g, "\r\n");
const parsed = (text: string) => parseMail(new TextEncoder().encode(crlf(text)));

/** A notice's headers: a mailer daemon's, to `to`, quoting `<original-1@acme.test>` as its original. */
function notice(to: string, extra: string[], body: string[], contentType = "text/plain") {
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    `To: ${to}`,
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: <${crypto.randomUUID()}@mx.example.net>`,
    ...extra,
    "MIME-Version: 1.0",
    `Content-Type: ${contentType}`,
    "",
    ...body,
  ].join("\n");
}

/** The issue's first shape: a `multipart/report` with 20,000 addresses in `X-Failed-Recipients`. */
function manyFailedRecipients(to: string, count = 20_000) {
  const addresses = Array.from({ length: count }, (_, i) => `user${i}@example${i % 97}.net`);
  const text = Array.from({ length: 3_000 }, (_, i) => `Line ${i} of the transcript: delivery failed.`);
  return notice(
    to,
    [`X-Failed-Recipients: ${addresses.join(", ")}`],
    [
      "--R",
      "Content-Type: text/plain",
      "",
      "This message could not be delivered to the following recipients.",
      ...text,
      "--R",
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.example.net",
      "--R",
      "Content-Type: text/rfc822-headers",
      "",
      "Message-ID: <original-1@acme.test>",
      "--R--",
      "",
    ],
    'multipart/report; report-type=delivery-status; boundary="R"',
  );
}

/** The issue's second shape: a 60 KB line `x@y.com <a@a@a@…` (here its worst variant, all `@`). */
const bracketed = (to: string) =>
  notice(
    to,
    [],
    [
      "This message could not be delivered.",
      `x@y.com <${"@".repeat(60_000)}`,
      "",
      "Message-ID: <original-1@acme.test>",
    ],
  );

describe("hostile notices through the email handler, from anyone who can write to an inbox", () => {
  it("20,000 X-Failed-Recipients in a 439 KB report: read in well under a second", async () => {
    const { inbox } = await inboundWorkspace();
    const raw = crlf(manyFailedRecipients(inbox.emailAddress));
    expect(raw.length).toBeGreaterThan(400_000);
    const { kind, ms } = await handlerTime(raw, { from: MAILER_DAEMON, to: inbox.emailAddress });
    expect(kind).not.toBe("rejected");
    expect(ms).toBeLessThan(HANDLER_MS);
  });

  it("a Subject of 500 KB of encoded words: refused by the parser at 256 KiB of headers, and dropped", async () => {
    const { ws, inbox } = await inboundWorkspace();
    // Unpadded base64 words of one charset, which the parser joins: each join searched the whole chain.
    const words = Array.from({ length: 20_000 }, (_, i) => `=?utf-8?B?${btoa(`word${10_000 + i}`)}?=`);
    const raw = crlf(generatedMail(inbox.emailAddress, words.join(" "), "text/plain", "Hello"));
    expect(raw.length).toBeGreaterThan(500_000);
    const { kind, ms } = await handlerTime(raw, { to: inbox.emailAddress });
    expect(kind).toBe("dropped");
    expect(ms).toBeLessThan(HANDLER_MS);
    expect(await droppedOf(ws.accountId)).toEqual([
      expect.objectContaining({ reason: "parse_failed", detail: expect.stringContaining("header size") }),
    ]);
  });

  it("a 60 KB line `x@y.com <@@@…`: read in well under a second", async () => {
    const { inbox } = await inboundWorkspace();
    const raw = crlf(bracketed(inbox.emailAddress));
    const { kind, ms } = await handlerTime(raw, { from: MAILER_DAEMON, to: inbox.emailAddress });
    expect(kind).not.toBe("rejected");
    expect(ms).toBeLessThan(HANDLER_MS);
  });
});

/** The readers a received mail goes through, each timed on its own. */
async function expectPrompt<T>(name: string, read: () => Promise<T> | T): Promise<T> {
  const [result, ms] = await timed(read);
  expect(ms, name).toBeLessThan(READER_MS);
  return result;
}

const readAsReport = (mail: InboundMail) => readReport(mail, null, {});

describe("each reader of inbound text, on the shape that was quadratic in it", () => {
  it("plain-notice: 9,000 X-Failed-Recipients (as many as the 256 KiB of headers the parser reads hold)", async () => {
    const mail = await parsed(manyFailedRecipients("bounces+x@acme.test", 9_000));
    const report = await expectPrompt("x-failed-recipients", () => readAsReport(mail));
    // What it names is cut to the first 100, as every list a report holds.
    expect(report?.recipients.map((r) => r.address).slice(0, 2)).toEqual([
      "user0@example0.net",
      "user1@example1.net",
    ]);
    expect(report?.recipients).toHaveLength(100);
  });

  it("plain-notice: the bracketed address after `x@y.com` on a 60 KB line (`a@a@…` and `@@@…`)", async () => {
    for (const run of ["a@".repeat(30_000), "@".repeat(60_000)]) {
      const mail = await parsed(notice("b@acme.test", [], ["could not be delivered", `x@y.com <${run}`]));
      await expectPrompt("bracketed", () => readAsReport(mail));
    }
  });

  it("plain-notice: 100 recipients named once at the top of a notice of 30,000 lines", async () => {
    const named = Array.from({ length: 100 }, (_, i) => `r${i}@example.net`);
    const mail = await parsed(
      notice(
        "b@acme.test",
        [`X-Failed-Recipients: ${named.join(", ")}`],
        [`Could not be delivered to ${named.join(" ")}`, ...Array(30_000).fill("x")],
      ),
    );
    await expectPrompt("recipient blocks", () => readAsReport(mail));
  });

  it("read-report: a Hotmail-style complaint whose text is 50,000 blank lines", async () => {
    const mail = await parsed(
      [
        "From: staff@hotmail.com",
        "To: b@acme.test",
        "Subject: complaint about message from 192.0.2.1",
        "Content-Type: text/plain",
        "",
        "\n".repeat(50_000),
      ].join("\n"),
    );
    await expectPrompt("hotmail to-line", () => readAsReport(mail));
  });

  it("quoted: a German attribution line of 160 KB (`Am 1 schrieb schrieb …`)", async () => {
    const text = `Am 1 ${"schrieb ".repeat(20_000)}`;
    await expectPrompt("attribution", () => stripQuoted(text));
    const mail = await parsed(notice("b@acme.test", [], [text]).replace("MAILER-DAEMON", "ada"));
    await expectPrompt("bodies", () => bodiesOf(mail));
  });
});
