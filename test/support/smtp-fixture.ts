import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { Mailbox } from "./mailbox";
import { RCPT_REJECTIONS, SMTP_TEST_USER } from "./smtp-test-env";

export interface SmtpFixture {
  port: number;
  close(): Promise<void>;
}

/**
 * A real smtp-server on loopback that records what it accepts into `mailbox`. With `replyDelayMs`,
 * its answers to MAIL, RCPT and the final dot each come that long after the command, as a server
 * a network away (or a slow one) answers.
 */
export async function startSmtpFixture(
  name: string,
  options: SMTPServerOptions,
  mailbox: Mailbox,
  replyDelayMs = 0,
): Promise<SmtpFixture> {
  const later = (answer: () => void) => (replyDelayMs > 0 ? setTimeout(answer, replyDelayMs) : answer());
  const server = new SMTPServer({
    name: `${name}.fixture.test`,
    logger: false,
    disableReverseLookup: true,
    ...options,
    onMailFrom(_address, _session, callback) {
      later(() => callback());
    },
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_TEST_USER.user && auth.password === SMTP_TEST_USER.pass) {
        callback(null, { user: auth.username });
        return;
      }
      callback(Object.assign(new Error("5.7.8 Authentication credentials invalid"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const rejection = RCPT_REJECTIONS[address.address];
      later(() =>
        rejection
          ? callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }))
          : callback(),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      const held = session.envelope.rcptTo.find((rcpt) => rcpt.address.startsWith("held-"));
      const released = held ? mailbox.releaseOf(held.address) : Promise.resolve();
      stream.on("end", async () => {
        await released;
        mailbox.messages.push({
          server: name,
          session: session.id,
          transaction: session.transaction,
          heloName: session.hostNameAppearsAs,
          secure: session.secure,
          user: session.user ?? null,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        later(() => callback(null, `2.0.0 Queued as ${name}-${mailbox.messages.length}`));
      });
    },
  });
  // A client that gives up (a refused certificate, a timeout) surfaces here too; the tests judge it
  // from the client's side, and an unheard "error" event would bring down the whole test run.
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
