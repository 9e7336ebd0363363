import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sendMail } from "../../src/mail/transports/smtp/client";
import { messageData } from "../../src/mail/transports/smtp/message-data";
import { ReplyReader } from "../../src/mail/transports/smtp/reply-reader";
import type { SmtpOptions } from "../../src/mail/transports/smtp/types";
import { receivedContaining, SMTP_TEST_USER, type SmtpTestEnv } from "../support/smtp-test-env";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Bound by vitest.config.ts from what test/support/smtp-global-setup.ts started. */
      SMTP_TEST: SmtpTestEnv;
    }
  }
}

const servers = env.SMTP_TEST;

const options = (port: number, overrides: Partial<SmtpOptions> = {}): SmtpOptions => ({
  host: "localhost",
  port,
  security: "starttls",
  auth: SMTP_TEST_USER,
  heloName: "worker.example.test",
  timeoutMs: 10_000,
  ...overrides,
});

/** Sends from a fixed sender; the tests vary the server, the recipients and the message. */
const send = (port: number, to: string[], message: string, overrides: Partial<SmtpOptions> = {}) =>
  sendMail(options(port, overrides), { from: "sender@example.test", to }, message);

/** A message whose body carries a unique marker, so each test finds its own delivery. */
function composeMessage(marker: string, bodyLines: string[] = ["Hello,", "", "Grüße, the body ✓"]): string {
  return [
    "From: Sender <sender@example.test>",
    "To: Reader <reader@example.test>",
    `Subject: Test ${marker}`,
    `Message-ID: <${marker}@example.test>`,
    "Date: Tue, 03 Mar 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    ...bodyLines,
    `marker ${marker}`,
    "",
  ].join("\r\n");
}

const deliveriesOf = (marker: string) => receivedContaining(servers.mailboxUrl, `marker ${marker}`);

describe("sendMail over a real SMTP server", () => {
  it("submits over STARTTLS with AUTH PLAIN, and the server receives exactly the bytes and envelope", async () => {
    const marker = crypto.randomUUID();
    const message = composeMessage(marker);
    const envelope = { from: "bounces@example.test", to: ["reader@example.test", "bcc-only@example.test"] };

    const result = await sendMail(options(servers.submissionPort), envelope, message);

    expect(result).toEqual({
      ok: true,
      code: 250,
      response: expect.stringMatching(/^2\.0\.0 Queued as /),
      rejected: [],
    });
    const [delivered, ...others] = await deliveriesOf(marker);
    expect(others).toEqual([]);
    expect(delivered).toEqual({
      server: "submission",
      session: expect.any(String),
      transaction: 1,
      heloName: "worker.example.test",
      secure: true,
      user: SMTP_TEST_USER.user,
      from: "bounces@example.test",
      to: ["reader@example.test", "bcc-only@example.test"],
      raw: message,
    });
    expect(delivered?.raw).toContain(`Subject: Test ${marker}\r\n`);
    expect(delivered?.raw).not.toContain("bcc-only");
  });

  it("falls back to AUTH LOGIN when PLAIN is not offered", async () => {
    const marker = crypto.randomUUID();
    const result = await send(servers.loginOnlyPort, ["reader@example.test"], composeMessage(marker));
    expect(result.ok).toBe(true);
    const deliveries = await deliveriesOf(marker);
    expect(deliveries.map((d) => [d.server, d.user, d.secure])).toEqual([
      ["login-only", SMTP_TEST_USER.user, true],
    ]);
  });

  it("submits over implicit TLS", async () => {
    const marker = crypto.randomUUID();
    const message = composeMessage(marker);
    const result = await send(servers.implicitTlsPort, ["reader@example.test"], message, {
      security: "tls",
      host: "127.0.0.1",
    });
    expect(result.ok).toBe(true);
    const deliveries = await deliveriesOf(marker);
    expect(deliveries.map((d) => [d.server, d.secure, d.raw])).toEqual([["implicit-tls", true, message]]);
  });

  it("submits without TLS or AUTH when told to (loopback only)", async () => {
    const marker = crypto.randomUUID();
    const result = await send(servers.plainPort, ["reader@example.test"], composeMessage(marker), {
      security: "none",
      auth: undefined,
    });
    expect(result.ok).toBe(true);
    expect((await deliveriesOf(marker)).map((d) => [d.server, d.secure, d.user])).toEqual([
      ["plain", false, null],
    ]);
  });

  it("round-trips lines that start with a dot", async () => {
    const marker = crypto.randomUUID();
    const message = composeMessage(marker, [".leading dot", "..two dots", ".", "", ". spaced", "end."]);
    const result = await send(servers.submissionPort, ["reader@example.test"], message);
    expect(result.ok).toBe(true);
    expect((await deliveriesOf(marker)).map((d) => d.raw)).toEqual([message]);
  });

  it("ends a message that lacks its final CRLF with one", async () => {
    const marker = crypto.randomUUID();
    const message = composeMessage(marker).replace(/\r\n$/, "");
    const result = await send(servers.submissionPort, ["reader@example.test"], message);
    expect(result.ok).toBe(true);
    expect((await deliveriesOf(marker)).map((d) => d.raw)).toEqual([`${message}\r\n`]);
  });
});

describe("one transaction, pipelined or step by step", () => {
  // The submission server offers PIPELINING (MAIL, RCPT and DATA go in one write); the plain one
  // does not (each waits for its answer). Both read the same answers the same way.
  const paths = [
    { name: "pipelined", port: servers.submissionPort, overrides: {} },
    {
      name: "step by step",
      port: servers.plainPort,
      overrides: { security: "none" as const, auth: undefined },
    },
  ];
  for (const { name, port, overrides } of paths) {
    it(`${name}: delivers to the recipients accepted and names the one refused`, async () => {
      const marker = crypto.randomUUID();
      const to = ["reader@example.test", "nobody@example.test", "second@example.test"];
      const result = await send(port, to, composeMessage(marker), overrides);
      expect(result).toMatchObject({
        ok: true,
        code: 250,
        rejected: [{ recipient: "nobody@example.test", code: 550, response: "5.1.1 No such user" }],
      });
      expect((await deliveriesOf(marker)).map((d) => d.to)).toEqual([
        ["reader@example.test", "second@example.test"],
      ]);
    });

    it(`${name}: refuses the transaction when every recipient is refused`, async () => {
      const result = await send(
        port,
        ["nobody@example.test", "busy@example.test"],
        composeMessage("x"),
        overrides,
      );
      expect(result).toEqual({
        ok: false,
        permanent: true,
        code: 550,
        stage: "rcpt",
        response: "5.1.1 No such user",
      });
    });
  }
});

describe("sendMail refusals and failures", () => {
  it("fails permanently at auth with a wrong password, without echoing it", async () => {
    const marker = crypto.randomUUID();
    const result = await send(servers.submissionPort, ["reader@example.test"], composeMessage(marker), {
      auth: { user: SMTP_TEST_USER.user, pass: "wrong password" },
    });
    expect(result).toEqual({
      ok: false,
      permanent: true,
      code: 535,
      stage: "auth",
      response: "5.7.8 Authentication credentials invalid",
    });
    expect(JSON.stringify(result)).not.toContain("wrong password");
    expect(await deliveriesOf(marker)).toEqual([]);
  });

  it("fails permanently when the only recipient is refused with 550", async () => {
    const result = await send(
      servers.submissionPort,
      ["nobody@example.test"],
      composeMessage(crypto.randomUUID()),
    );
    expect(result).toEqual({
      ok: false,
      permanent: true,
      code: 550,
      stage: "rcpt",
      response: "5.1.1 No such user",
    });
  });

  it("fails temporarily when the only recipient is deferred with 451", async () => {
    const result = await send(
      servers.submissionPort,
      ["busy@example.test"],
      composeMessage(crypto.randomUUID()),
    );
    expect(result).toMatchObject({ ok: false, permanent: false, code: 451, stage: "rcpt" });
  });

  it("reports the worst code when every recipient is refused", async () => {
    const result = await send(
      servers.submissionPort,
      ["busy@example.test", "nobody@example.test"],
      composeMessage(crypto.randomUUID()),
    );
    expect(result).toMatchObject({ ok: false, permanent: true, code: 550, stage: "rcpt" });
  });

  it("sends to the accepted recipients and lists the refused ones", async () => {
    const marker = crypto.randomUUID();
    const result = await send(
      servers.submissionPort,
      ["nobody@example.test", "reader@example.test", "busy@example.test"],
      composeMessage(marker),
    );
    expect(result).toEqual({
      ok: true,
      code: 250,
      response: expect.stringMatching(/^2\.0\.0 Queued as /),
      rejected: [
        { recipient: "nobody@example.test", code: 550, response: "5.1.1 No such user" },
        { recipient: "busy@example.test", code: 451, response: "4.3.0 Mailbox busy, try again later" },
      ],
    });
    expect((await deliveriesOf(marker)).map((d) => d.to)).toEqual([["reader@example.test"]]);
  });

  it("fails temporarily at connect when the connection is refused", async () => {
    const result = await send(servers.closedPort, ["reader@example.test"], "x\r\n");
    expect(result).toMatchObject({ ok: false, permanent: false, code: null, stage: "connect" });
  });

  it("times out waiting for a greeting that never comes", async () => {
    const result = await send(servers.silentPort, ["reader@example.test"], "x\r\n", { timeoutMs: 300 });
    expect(result).toEqual({
      ok: false,
      permanent: false,
      code: null,
      stage: "greeting",
      response: expect.stringContaining("timed out after 300 ms"),
    });
  });

  it("refuses to go on when STARTTLS is required but not offered", async () => {
    const marker = crypto.randomUUID();
    const result = await send(servers.plainPort, ["reader@example.test"], composeMessage(marker));
    expect(result).toMatchObject({ ok: false, permanent: false, code: null, stage: "starttls" });
    expect(await deliveriesOf(marker)).toEqual([]);
  });

  it("refuses a certificate no trusted CA signed", async () => {
    const marker = crypto.randomUUID();
    const result = await send(servers.untrustedPort, ["reader@example.test"], composeMessage(marker));
    expect(result).toMatchObject({ ok: false, permanent: false, code: null, stage: "starttls" });
    expect(await deliveriesOf(marker)).toEqual([]);
  });

  it("rejects addresses that would inject commands, before connecting", async () => {
    const result = await send(
      servers.closedPort,
      ["reader@example.test>\r\nRCPT TO:<other@example.test"],
      "x\r\n",
    );
    expect(result).toEqual({
      ok: false,
      permanent: true,
      code: null,
      stage: "rcpt",
      response: "invalid recipient address",
    });
  });
});

describe("SMTP wire details", () => {
  const streamOf = (...chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });

  it("reads multi-line replies split anywhere across chunks", async () => {
    const reader = new ReplyReader(
      streamOf("250-mx.example Hi\r\n25", "0-SIZE 100\r", "\n250 8BITMIME\r\n221\r\n"),
    );
    expect(await reader.read()).toEqual({
      code: 250,
      lines: ["250-mx.example Hi", "250-SIZE 100", "250 8BITMIME"],
      text: "mx.example Hi\nSIZE 100\n8BITMIME",
    });
    expect(await reader.read()).toEqual({ code: 221, lines: ["221"], text: "" });
    await expect(reader.read()).rejects.toThrow("connection closed");
  });

  it("rejects a line that is not a reply", async () => {
    await expect(new ReplyReader(streamOf("hello\r\n")).read()).rejects.toThrow("malformed reply");
  });

  it("dot-stuffs, uses CRLF and terminates the data", () => {
    const wire = new TextDecoder().decode(messageData(".a\nb\r\n.\r\n..c"));
    expect(wire).toBe("..a\r\nb\r\n..\r\n...c\r\n.\r\n");
  });
});
