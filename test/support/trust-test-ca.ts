import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestTls, type TestTls } from "./test-tls.js";

/** Survives the config being evaluated again (watch mode) while Miniflare stays loaded. */
const ONCE_PER_PROCESS = Symbol.for("support-mail-service.trusted-test-tls");
type Memo = { [ONCE_PER_PROCESS]?: Promise<TestTls> };

/**
 * The test CA and server certificate, with workerd told to trust the CA for outbound TLS,
 * `connect()` included. Miniflare adds the certificates named by NODE_EXTRA_CA_CERTS to its
 * "internet" service but reads the variable once, when its module is first evaluated: call this
 * before anything imports miniflare or the plugin, and reuse one CA for the life of the process.
 */
export function trustedTestTls(): Promise<TestTls> {
  const memo = globalThis as Memo;
  memo[ONCE_PER_PROCESS] ??= createTestTls().then((tls) => {
    trustInWorkerd(tls.caCert);
    return tls;
  });
  return memo[ONCE_PER_PROCESS];
}

/** Any bundle already named in NODE_EXTRA_CA_CERTS is kept, so a corporate proxy's CA still works. */
function trustInWorkerd(caCert: string): void {
  const existing = process.env.NODE_EXTRA_CA_CERTS;
  const kept = existing ? readIfPresent(existing) : "";
  const dir = mkdtempSync(join(tmpdir(), "smtp-test-ca-"));
  const bundle = join(dir, "ca.pem");
  writeFileSync(bundle, `${kept.trimEnd()}\n${caCert}`.trimStart());
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
}

function readIfPresent(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
