import { authMechanisms, type Capabilities } from "./capabilities";
import type { SmtpConnection } from "./connection";
import { SmtpFailure } from "./failure";
import type { SmtpOptions } from "./types";

type Credentials = NonNullable<SmtpOptions["auth"]>;

/**
 * AUTH PLAIN (RFC 4616) when offered, else AUTH LOGIN. The credentials go only into the commands:
 * failures carry the server's reply, never what was sent.
 */
export async function authenticate(
  connection: SmtpConnection,
  capabilities: Capabilities,
  { user, pass }: Credentials,
): Promise<void> {
  const offered = authMechanisms(capabilities);
  if (offered.has("PLAIN")) {
    await connection.command("auth", `AUTH PLAIN ${base64(`\0${user}\0${pass}`)}`, 235);
    return;
  }
  if (offered.has("LOGIN")) {
    await connection.command("auth", "AUTH LOGIN", 334);
    await connection.command("auth", base64(user), 334);
    await connection.command("auth", base64(pass), 235);
    return;
  }
  // Like Postfix, a missing mechanism defers: the server's configuration may well change.
  const listed = [...offered].join(" ") || "none";
  throw new SmtpFailure("auth", null, `the server offers no supported AUTH mechanism (offered: ${listed})`);
}

/** Base64 of the UTF-8 bytes, so credentials outside ASCII survive. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
