import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import type { TestProject } from "vitest/node";
import { Mailbox } from "./mailbox";
import { type SmtpFixture, startSmtpFixture } from "./smtp-fixture";
import type { SmtpTestEnv } from "./smtp-test-env";
import { createUntrustedCert } from "./test-tls";
import "./provided-context";

/** The slow server's answer to each of MAIL, RCPT and the dot. */
const SLOW_REPLY_MS = 150;
/** A server a real network away: a round trip of 20 ms to each of MAIL, RCPT and the dot. */
const DISTANT_REPLY_MS = 20;

/**
 * Starts the SMTP fixtures in Node, on loopback and port 0, before workerd starts; their ports reach
 * the Workers tests through `provide("smtpTest")`, which vitest.config.ts binds as `SMTP_TEST`.
 */
export default async function setup(project: TestProject) {
  const { key, cert } = project.getProvidedContext().testTls;
  const mailbox = new Mailbox();
  const fixtures: SmtpFixture[] = [];
  const start = async (name: string, options: Parameters<typeof startSmtpFixture>[1], delayMs = 0) => {
    const fixture = await startSmtpFixture(name, options, mailbox, delayMs);
    fixtures.push(fixture);
    return fixture.port;
  };
  const silent = await listenSilently();
  const untrusted = await createUntrustedCert();

  const env: SmtpTestEnv = {
    submissionPort: await start("submission", { key, cert, authMethods: ["PLAIN", "LOGIN"] }),
    loginOnlyPort: await start("login-only", { key, cert, authMethods: ["LOGIN"] }),
    implicitTlsPort: await start("implicit-tls", { key, cert, secure: true, authMethods: ["PLAIN"] }),
    untrustedPort: await start("untrusted", { ...untrusted, authMethods: ["PLAIN"] }),
    // Also the one server that does not offer PIPELINING: the client's step-by-step path.
    plainPort: await start("plain", {
      disabledCommands: ["STARTTLS", "AUTH"],
      authOptional: true,
      hidePIPELINING: true,
    }),
    slowPort: await start("slow", { key, cert, authMethods: ["PLAIN"] }, SLOW_REPLY_MS),
    distantPort: await start("distant", { key, cert, authMethods: ["PLAIN"] }, DISTANT_REPLY_MS),
    silentPort: (silent.server.address() as AddressInfo).port,
    closedPort: await unusedPort(),
    mailboxUrl: await mailbox.listen(),
  };
  project.provide("smtpTest", env);

  return async () => {
    for (const socket of silent.sockets) socket.destroy();
    await new Promise((resolve) => silent.server.close(resolve));
    await Promise.all([...fixtures.map((fixture) => fixture.close()), mailbox.close()]);
  };
}

/** For timeouts: a listener that accepts and stays quiet. */
async function listenSilently(): Promise<{ server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, sockets };
}

/** A port that was free a moment ago: connecting to it is refused. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
