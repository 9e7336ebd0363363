/**
 * One key per purpose, derived from ENCRYPTION_KEY with HKDF-SHA-256 (RFC 5869) by Web Crypto, so
 * that a key used one way (say, a tracking HMAC an attacker can ask for at will) is never the key of
 * another (AES-GCM of stored secrets, reply tokens). Each purpose is the HKDF `info`; a new use
 * (survey tokens, sign-in links) adds its own name here and never reuses one. The salt is empty, as
 * RFC 5869 allows when the input is already uniformly random (32 random bytes).
 */

import { type HMAC, hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";

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
const cache = new Map<string, Map<Purpose, CryptoKey | MacKey>>();
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

interface HkdfParams {
  name: "HKDF";
  hash: "SHA-256";
  salt: Uint8Array;
  info: Uint8Array;
}

/** The key of `purpose`, made once per isolate from the secret's HKDF base key by `make`. */
async function cached<K extends CryptoKey | MacKey>(
  secret: string,
  purpose: Purpose,
  make: (base: CryptoKey, info: HkdfParams) => Promise<K>,
): Promise<K> {
  const known = cache.get(secret)?.get(purpose);
  if (known) return known as K;
  const base = await crypto.subtle.importKey("raw", secretBytes(secret), "HKDF", false, [
    "deriveKey",
    "deriveBits",
  ]);
  const key = await make(base, {
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(),
    info: encoder.encode(purpose),
  });
  if (!cache.has(secret) && cache.size >= MAX_SECRETS) cache.clear();
  const keys = cache.get(secret) ?? new Map<Purpose, CryptoKey | MacKey>();
  keys.set(purpose, key);
  cache.set(secret, keys);
  return key;
}

/** AES-256-GCM for secrets at rest: webhook secrets, DKIM private keys. */
export const encryptionKey = (secret: string) =>
  cached(secret, "encryption", (base, info) =>
    crypto.subtle.deriveKey(info, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
  );

/**
 * An HMAC-SHA-256 key, ready to sign: its inner and outer pads already hashed (noble's `HMAC`),
 * each signature a `clone()` of it. Signed links and tokens are made by the thousand per campaign
 * (the bounce address and the unsubscribe link of every recipient), and Web Crypto's `sign` is an
 * asynchronous call through the runtime each time; hashing 50 bytes in JavaScript costs less.
 */
export type MacKey = HMAC<ReturnType<typeof sha256.create>>;

/**
 * HMAC-SHA-256 for signed links and tokens, one key per purpose: the first 256 bits of the
 * purpose's HKDF output, the very key Web Crypto's `deriveKey` to HMAC (length 256) made before,
 * so every link and token signed before still verifies.
 */
export const hmacKey = (secret: string, purpose: HmacPurpose) =>
  cached(secret, purpose, async (base, info) =>
    hmac.create(sha256, new Uint8Array(await crypto.subtle.deriveBits(info, base, 256))),
  );
