/** The baseline: a bare smtp-server with the same TLS and AUTH steps that discards every message. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export async function startBareSmtp(certificate: { key: string; cert: string }) {
  const server = new SMTPServer({
    key: certificate.key,
    cert: certificate.cert,
    authMethods: ["PLAIN", "LOGIN"],
    size: 25 * 1024 * 1024,
    disableReverseLookup: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "bench" });
    },
    onData(stream, _session, callback) {
      stream.on("end", () => callback(null, "2.0.0 Ok: discarded"));
      stream.resume();
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
