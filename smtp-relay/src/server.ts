/**
 * The relay's server factory: builds a configured smtp-server and its helpers, without listening,
 * watching files or touching the process (main.ts does that), so tests can make as many as they
 * like on port 0.
 */
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { type ApiClient, createApiClient } from "./api-client";
import { AuthGate } from "./auth-gate";
import type { RelayConfig } from "./config";
import { DataBudget } from "./data-budget";
import { LogShipper } from "./log-shipper";
import { relayMessage } from "./relay-message";
import type { SmtpReply } from "./replies";
import { type RelayUser, Sessions } from "./sessions";
import type { Certificate } from "./tls";

export interface RelayServer {
  server: SMTPServer;
  logs: LogShipper;
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Swaps the STARTTLS certificate for new sessions. */
  setCertificate(certificate: Certificate): void;
  /** Message bytes held in memory now, across sessions (at most SMTP_MAX_BUFFERED_BYTES). */
  bufferedBytes(): number;
  /** Stops accepting, lets sessions in flight finish (up to the grace period), then flushes logs. */
  close(): Promise<void>;
}

const smtpError = (reply: SmtpReply) => Object.assign(new Error(reply.message), { responseCode: reply.code });

export function createRelayServer(
  config: RelayConfig,
  certificate: Certificate,
  api: ApiClient = createApiClient({ baseUrl: config.apiUrl, relayToken: config.relayToken }),
): RelayServer {
  const logs = new LogShipper(api);
  const sessions = new Sessions(logs);
  const budget = new DataBudget(config.maxBufferedBytes);
  const gate = new AuthGate(api, {
    cacheMs: config.authCacheMs,
    failureDelayMs: config.authFailureDelayMs,
    failureDelayMaxMs: config.authFailureDelayMaxMs,
  });

  const server: SMTPServer = new SMTPServer({
    name: config.name,
    banner: "relay: AUTH with user apikey and an API key as the password, after STARTTLS",
    key: certificate.key,
    cert: certificate.cert,
    authMethods: ["PLAIN", "LOGIN"],
    allowInsecureAuth: false,
    size: config.maxMessageBytes,
    maxClients: config.maxClients,
    socketTimeout: config.idleTimeoutMs,
    closeTimeout: config.shutdownGraceMs,
    disableReverseLookup: true,
    // Replies carry their own enhanced codes (5.7.1, 4.7.0...), which smtp-server's generic ones would contradict.
    hideENHANCEDSTATUSCODES: true,
    logger: false,

    onConnect(session, callback) {
      // smtp-server has an idle timeout but no limit on a whole session; one that trickles a
      // command now and then would otherwise hold a connection slot for ever.
      const timer = setTimeout(() => {
        for (const connection of server.connections) {
          if (connection.id === session.id) {
            connection.send(421, "4.4.2 Session time limit exceeded, closing connection");
            connection.close();
          }
        }
      }, config.sessionTimeoutMs);
      timer.unref();
      sessions.open(session.id, timer);
      callback();
    },

    onSecure(socket, session, callback) {
      sessions.secured(session.id, (socket as TLSSocket).getProtocol?.() ?? "TLS");
      callback();
    },

    onAuth(auth, session, callback) {
      void gate.check(session.remoteAddress, auth.username ?? "", auth.password ?? "").then(
        (result) => {
          if (result.kind === "accepted") {
            sessions.authenticated(session.id, result.keyHash, true);
            const user: RelayUser = { apiKey: auth.password ?? "", keyHash: result.keyHash };
            callback(null, { user });
            return;
          }
          sessions.authenticated(session.id, result.keyHash, false);
          sessions.record(session, result.reply, null);
          callback(smtpError(result.reply));
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },

    onRcptTo(_address, session, callback) {
      if (session.envelope.rcptTo.length >= config.maxRecipients) {
        callback(
          smtpError({ code: 452, message: "4.5.3 Too many recipients", outcome: "deferred", emailId: null }),
        );
        return;
      }
      callback();
    },

    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      void relayMessage(stream, session, { api, maxBytes: config.maxMessageBytes, budget }).then(
        (outcome) => {
          if (outcome.reply.code === 535) gate.forget((session.user as RelayUser).keyHash);
          sessions.record(session, outcome.reply, { size: outcome.size });
          if (outcome.reply.code < 300) callback(null, outcome.reply.message);
          else callback(smtpError(outcome.reply));
        },
      );
    },

    onClose(session) {
      sessions.close(session);
    },
  });
  // Client-side socket errors (resets, failed handshakes) end one session, never the relay.
  server.on("error", () => {});

  return {
    server,
    logs,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        server.server.once("error", reject);
        server.listen(port, host, () => {
          server.server.off("error", reject);
          resolve(server.server.address() as AddressInfo);
        });
      });
    },
    setCertificate(next) {
      server.updateSecureContext({ key: next.key, cert: next.cert });
    },
    bufferedBytes: () => budget.buffered,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await logs.flush();
    },
  };
}
