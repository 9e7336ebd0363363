/**
 * A real SMTP server on loopback that takes every message (no TLS, no AUTH) and remembers each
 * accepted DATA by envelope and Message-ID. It lives in the test process, so it outlives every
 * kill of the Worker and sees each hand-off exactly as a smart host would.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SunkMessage {
  from: string;
  to: string[];
  /** The Message-ID header, angle brackets included. */
  messageId: string;
  /** The email's id when the Message-ID is the service's own `<eml_…@domain>`. */
  emailId: string | null;
  at: number;
}

export interface SmtpSink {
  port: number;
  messages: SunkMessage[];
  close(): Promise<void>;
}

const headerValue = (raw: string, name: string) => {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/) + 1 || raw.length);
  return new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(head)?.[1]?.trim() ?? "";
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const server = new SMTPServer({
    name: "sink.crash.test",
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const messageId = headerValue(raw, "Message-ID");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          messageId,
          emailId: /^<(eml_[A-Za-z0-9]+)@/.exec(messageId)?.[1] ?? null,
          at: Date.now(),
        });
        callback(null, `2.0.0 Queued as sink-${messages.length}`);
      });
    },
  });
  // A client killed mid-transaction drops its connection; that is the point of these tests.
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
