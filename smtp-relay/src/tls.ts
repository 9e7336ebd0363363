/**
 * The STARTTLS certificate: read from the configured files, generated (self-signed) on first start
 * in development, and reloaded when the files change so a renewed certificate (certbot, a mounted
 * secret) takes effect without dropping sessions.
 */
import { existsSync, mkdirSync, readFileSync, unwatchFile, watchFile, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { RelayConfig } from "./config";

export interface Certificate {
  key: string;
  cert: string;
}

export function readCertificate(tls: RelayConfig["tls"]): Certificate {
  return { key: readFileSync(tls.keyPath, "utf8"), cert: readFileSync(tls.certPath, "utf8") };
}

/** A year-long self-signed certificate for `name` and loopback. RSA: selfsigned's EC path is broken here. */
export async function selfSignedCertificate(name: string): Promise<Certificate> {
  // Loaded only when needed: its X.509 libraries would otherwise weigh on every relay's memory.
  const { generate } = await import("selfsigned");
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 365 * 86_400_000);
  const pems = await generate([{ name: "commonName", value: name }], {
    notBeforeDate,
    notAfterDate,
    algorithm: "sha256",
    keyType: "rsa",
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: name },
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** The configured certificate, generating the development one first if it is missing. */
export async function loadCertificate(config: RelayConfig): Promise<Certificate> {
  const { tls } = config;
  if (tls.generate && !(existsSync(tls.certPath) && existsSync(tls.keyPath))) {
    const generated = await selfSignedCertificate(config.name);
    mkdirSync(dirname(tls.keyPath), { recursive: true });
    writeFileSync(tls.keyPath, generated.key, { mode: 0o600 });
    writeFileSync(tls.certPath, generated.cert);
    return generated;
  }
  return readCertificate(tls);
}

/**
 * Calls `onChange` with the new pair when either file changes. Polling (not inotify) because
 * renewals usually swap a symlink or rename a file into place, which inotify watches miss. A pair
 * that does not load (half written) is skipped; the next poll picks up the finished one.
 */
export function watchCertificate(
  tls: RelayConfig["tls"],
  onChange: (certificate: Certificate) => void,
  onError: (error: unknown) => void,
): () => void {
  const reload = (current: { mtimeMs: number }, previous: { mtimeMs: number }) => {
    if (current.mtimeMs === previous.mtimeMs) return;
    try {
      onChange(readCertificate(tls));
    } catch (error) {
      onError(error);
    }
  };
  const options = { interval: tls.watchMs, persistent: false };
  watchFile(tls.certPath, options, reload);
  watchFile(tls.keyPath, options, reload);
  return () => {
    unwatchFile(tls.certPath, reload);
    unwatchFile(tls.keyPath, reload);
  };
}
