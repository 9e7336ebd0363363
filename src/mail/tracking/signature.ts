import { constantTimeEqual, hmacSha256Hex } from "../../lib/crypto";

/**
 * Tracking links carry an HMAC of what they point at, so a link cannot be edited into a redirect
 * to anywhere else (no open redirect) and opens cannot be counted for other emails. The key is
 * the deployment's ENCRYPTION_KEY, under a context string of its own.
 */
export async function trackingSignature(
  key: string,
  kind: "open" | "click",
  emailId: string,
  url = "",
): Promise<string> {
  return (await hmacSha256Hex(`tracking:${key}`, `${kind}\n${emailId}\n${url}`)).slice(0, 32);
}

export async function verifyTrackingSignature(
  key: string,
  kind: "open" | "click",
  emailId: string,
  url: string,
  signature: string,
): Promise<boolean> {
  return constantTimeEqual(await trackingSignature(key, kind, emailId, url), signature);
}
