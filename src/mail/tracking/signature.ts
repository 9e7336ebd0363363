import { constantTimeEqual, hmacSha256Hex, signHex } from "../../lib/crypto";
import { hmacKey } from "../../lib/keys";

/**
 * Tracking links carry an HMAC of what they point at, so a link cannot be edited into a redirect
 * to anywhere else (no open redirect) and opens cannot be counted for other emails. The key is the
 * "tracking" key derived from the deployment's ENCRYPTION_KEY (src/lib/keys.ts).
 */
const SIGNATURE_LENGTH = 32;

const signed = (kind: "open" | "click", emailId: string, url: string) => `${kind}\n${emailId}\n${url}`;

export async function trackingSignature(
  key: string,
  kind: "open" | "click",
  emailId: string,
  url = "",
): Promise<string> {
  return (await signHex(await hmacKey(key, "tracking"), signed(kind, emailId, url))).slice(
    0,
    SIGNATURE_LENGTH,
  );
}

/** How links were signed before keys were derived; emails already sent carry such links. */
async function legacySignature(key: string, kind: "open" | "click", emailId: string, url: string) {
  return (await hmacSha256Hex(`tracking:${key}`, signed(kind, emailId, url))).slice(0, SIGNATURE_LENGTH);
}

export async function verifyTrackingSignature(
  key: string,
  kind: "open" | "click",
  emailId: string,
  url: string,
  signature: string,
): Promise<boolean> {
  return (
    constantTimeEqual(await trackingSignature(key, kind, emailId, url), signature) ||
    constantTimeEqual(await legacySignature(key, kind, emailId, url), signature)
  );
}
