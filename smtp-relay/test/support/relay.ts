/** Starting relays on 127.0.0.1 port 0 against the test Worker, and clients that trust their certificate. */
import { connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import nodemailer from "nodemailer";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { inject } from "vitest";
import type { RelayConfig } from "../../src/config";
import { createRelayServer, type RelayServer } from "../../src/server";
import type { Certificate } from "../../src/tls";
import "./context";

export const ctx = () => inject("relay");

export function testConfig(overrides: Partial<RelayConfig> = {}): RelayConfig {
  const { workerUrl, relayToken } = ctx();
  return {
    port: 0,
    host: "127.0.0.1",
    name: "localhost",
    tls: { certPath: "", keyPath: "", generate: false, watchMs: 50 },
    apiUrl: workerUrl,
    relayToken,
    maxMessageBytes: 25 * 1024 * 1024,
    maxBufferedBytes: 256 * 1024 * 1024,
    maxRecipients: 1000,
    maxClients: 100,
    idleTimeoutMs: 30_000,
    sessionTimeoutMs: 120_000,
    authCacheMs: 30_000,
    authFailureDelayMs: 0,
    authFailureDelayMaxMs: 0,
    shutdownGraceMs: 5_000,
    ...overrides,
  };
}

export interface StartedRelay {
  relay: RelayServer;
  port: number;
  close(): Promise<void>;
}

export async function startRelay(
  overrides: Partial<RelayConfig> = {},
  certificate: Certificate = ctx().certificate,
): Promise<StartedRelay> {
  const relay = createRelayServer(testConfig(overrides), certificate);
  const address = await relay.listen();
  return { relay, port: address.port, close: () => relay.close() };
}

/** A nodemailer transport that insists on STARTTLS and trusts the test certificate. */
export function transport(port: number, pass: string, user = "apikey", certificate = ctx().certificate) {
  return nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    requireTLS: true,
    auth: { user, pass },
    tls: { ca: certificate.cert, servername: "localhost" },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
}

/**
 * One nodemailer connection, through STARTTLS and AUTH, whose messages are streams the test writes
 * at its own pace: a stream has no size to declare, so the relay learns it only at DATA.
 */
export async function streamingSender(port: number, pass: string) {
  const connection = new SMTPConnection({
    host: "127.0.0.1",
    port,
    requireTLS: true,
    tls: { ca: ctx().certificate.cert, servername: "localhost" },
  });
  connection.on("error", () => {});
  await new Promise<void>((resolve, reject) =>
    connection.connect((error) => (error ? reject(error) : resolve())),
  );
  await new Promise<void>((resolve, reject) =>
    connection.login({ user: "apikey", pass }, (error) => (error ? reject(error) : resolve())),
  );
  return {
    connection,
    /** Starts a message: write its bytes to `body`, end it, and `sent` settles with the reply. */
    send(from: string, to: string[]) {
      const body = new PassThrough();
      const sent = new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) =>
        connection.send({ from, to }, body, (error, info) => (error ? reject(error) : resolve(info))),
      );
      sent.catch(() => {});
      return { body, sent };
    },
  };
}

/** The SMTP error nodemailer reports, as `code text`. */
export async function sendFails(
  promise: Promise<unknown>,
): Promise<{ responseCode: number; response: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { responseCode: number; response: string };
  }
  throw new Error("the send was accepted");
}

/** A plain socket that collects what the server says, for the conversation-level tests. */
export function rawSession(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  return {
    socket,
    closed,
    received: () => received,
    write: (line: string) => socket.write(`${line}\r\n`),
    async waitFor(pattern: RegExp, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(received)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${received}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** An authenticated call to the test Worker. */
export async function api<T = Record<string, unknown>>(
  path: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(`${ctx().workerUrl}${path}`, {
    method: init.method ?? "GET",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body = {} as T;
  try {
    body = JSON.parse(text) as T;
  } catch {}
  return { status: response.status, body, text };
}

export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
