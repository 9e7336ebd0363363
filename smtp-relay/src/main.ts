/**
 * The relay's entry: load the configuration and certificate, listen, reload the certificate when
 * its files change, and on SIGTERM or SIGINT stop accepting, let sessions in flight finish, flush
 * the logs and exit.
 */
import { loadConfig } from "./config";
import { createRelayServer } from "./server";
import { loadCertificate, watchCertificate } from "./tls";

const config = loadConfig();
const certificate = await loadCertificate(config);
const relay = createRelayServer(config, certificate);
const address = await relay.listen();
const stopWatching = watchCertificate(
  config.tls,
  (next) => {
    relay.setCertificate(next);
    console.log("smtp-relay: reloaded the TLS certificate");
  },
  (error) => console.error(`smtp-relay: could not reload the TLS certificate: ${String(error)}`),
);
console.log(
  `smtp-relay: listening on ${address.address}:${address.port} (STARTTLS${config.tls.generate ? ", self-signed development certificate" : ""}), forwarding to ${config.apiUrl}`,
);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`smtp-relay: ${signal}, finishing sessions in flight`);
    stopWatching();
    void relay.close().then(() => process.exit(0));
  });
}
