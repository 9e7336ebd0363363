/**
 * One key per purpose, derived from ENCRYPTION_KEY with HKDF-SHA-256 (RFC 5869) by Web Crypto, so
 * that a key used one way (say, a tracking HMAC an attacker can ask for at will) is never the key of
 * another (AES-GCM of stored secrets, reply tokens). Each purpose is the HKDF `info`; a new use
 * (survey tokens, sign-in links) adds its own name here and never reuses one. The salt is empty, as
 * RFC 5869 allows when the input is already uniformly random (32 random bytes).
 */

export const HMAC_PURPOSES = [
  "tracking",
  "reply-token",
  "bounce-token",
  "unsubscribe-token",
  "dashboard-csrf",
  "survey-token",
] as const;
export type HmacPurpose = (typeof HMAC_PURPOSES)[number];
type Purpose = "encryption" | HmacPurpose;

const encoder = new TextEncoder();

/**
 * Derived keys by secret, then purpose, for the life of the isolate: a derivation costs two Web
 * Crypto calls per request otherwise. Only settled keys are kept (a pending promise must not be
 * shared between requests). More than one secret is rare (tests); a few are kept at most.
 */
const cache = new Map<string, Map<Purpose, CryptoKey>>();
const MAX_SECRETS = 4;

/**
 * The 32 bytes of ENCRYPTION_KEY (base64); anything else is a misconfiguration. Decoded here, not
 * with crypto.ts's base64Decode, because crypto.ts builds on this module.
 */
export function secretBytes(secret: string): Uint8Array {
  let raw: Uint8Array | null = null;
  try {
    raw = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0));
  } catch {
    raw = null;
  }
  if (raw?.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, base64-encoded");
  return raw;
}

async function derive(
  secret: string,
  purpose: Purpose,
  algorithm: Parameters<SubtleCrypto["deriveKey"]>[2],
  usages: Parameters<SubtleCrypto["deriveKey"]>[4],
): Promise<CryptoKey> {
  const cached = cache.get(secret)?.get(purpose);
  if (cached) return cached;
  const base = await crypto.subtle.importKey("raw", secretBytes(secret), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: encoder.encode(purpose) },
    base,
    algorithm,
    false,
    usages,
  );
  if (!cache.has(secret) && cache.size >= MAX_SECRETS) cache.clear();
  const keys = cache.get(secret) ?? new Map<Purpose, CryptoKey>();
  keys.set(purpose, key);
  cache.set(secret, keys);
  return key;
}

/** AES-256-GCM for secrets at rest: webhook secrets, DKIM private keys. */
export const encryptionKey = (secret: string) =>
  derive(secret, "encryption", { name: "AES-GCM", length: 256 }, ["encrypt", "decrypt"]);

/** HMAC-SHA-256 for signed links and tokens, one key per purpose. */
export const hmacKey = (secret: string, purpose: HmacPurpose) =>
  derive(secret, purpose, { name: "HMAC", hash: "SHA-256", length: 256 }, ["sign"]);
