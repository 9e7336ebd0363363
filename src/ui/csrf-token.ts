import { constantTimeEqual, signHex } from "../lib/crypto";
import { hmacKey } from "../lib/keys";

/** The form field and the header (htmx requests) that carry the dashboard's CSRF token. */
export const CSRF_FIELD = "_csrf";
export const CSRF_HEADER = "X-CSRF-Token";

/**
 * The per-session CSRF token: an HMAC of the session token's hash under a key of its own. It is
 * stable for the session's life (any open tab keeps working), differs between sessions, and needs
 * no storage; a page of another origin can neither read it nor compute it.
 */
export async function csrfTokenFor(secret: string, sessionTokenHash: string): Promise<string> {
  return signHex(await hmacKey(secret, "dashboard-csrf"), sessionTokenHash);
}

export async function isValidCsrfToken(secret: string, sessionTokenHash: string, given: string) {
  return constantTimeEqual(given, await csrfTokenFor(secret, sessionTokenHash));
}
