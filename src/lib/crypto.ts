/** Hashing, random tokens, constant-time comparison and AES-GCM, on Web Crypto only. */
import { encryptionKey, secretBytes } from "./keys";

const encoder = new TextEncoder();
export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Each byte's two hex digits, made once: every authenticated request hashes its key to hex. */
const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = "";
  for (let i = 0; i < view.length; i++) hex += HEX_PAIRS[view[i] ?? 0];
  return hex;
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    encoder.encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toHex(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message)));
}

/** HMAC-SHA-256 under a key from src/lib/keys.ts, in lowercase hex. */
export async function signHex(key: CryptoKey, message: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/**
 * `length` characters drawn uniformly from [0-9A-Za-z]. Bytes of 248 and above are rejected so
 * that `byte % 62` has no bias; 43 characters carry more than 256 bits.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** CRC-32 (IEEE 802.3, as zlib and PNG) reflected polynomial: one table, built on first use. */
let crcTable: Uint32Array | null = null;

function crcTableOf(): Uint32Array {
  if (crcTable) return crcTable;
  crcTable = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crcTable[n] = c >>> 0;
  }
  return crcTable;
}

/**
 * The CRC-32 of `text`'s UTF-8 bytes, unsigned. Written here because Web Crypto has no CRC, the
 * Worker's types carry no node:zlib, and the npm package crc-32 gives Node's ESM loader (the
 * scripts) no named exports; the standard check value is in the tests.
 */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  // ASCII text (every API key) is its own UTF-8: read it in place, without encoding a copy first.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return crc32OfBytes(encoder.encode(text));
    crc = crcStep(crc, code);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function crc32OfBytes(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcStep(crc, bytes[i] ?? 0);
  return (crc ^ 0xffffffff) >>> 0;
}

const crcStep = (crc: number, byte: number) => (crcTableOf()[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);

export function randomBase64Url(byteLength: number): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(byteLength)));
}

export function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Strict base64 (standard alphabet, padded to a multiple of 4), ignoring the line breaks and
 * spaces that MIME tools wrap it with: exactly what base64Decode takes once whitespace is removed.
 */
export function isBase64(text: string): boolean {
  const bare = text.replace(/\s+/g, "");
  return bare.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(bare);
}

export function base64Decode(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function base64UrlEncode(bytes: Uint8Array): string {
  return base64Encode(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Compares two strings without leaking where they differ; a length mismatch answers at once. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

const AES_IV_BYTES = 12;
/** Marks secrets sealed with the derived "encryption" key; older ones have no prefix and the raw key. */
const V2 = "v2:";

/** What encryptSecret wrote before keys were derived: sealed under ENCRYPTION_KEY itself. */
const legacyAesKey = (secret: string) =>
  crypto.subtle.importKey("raw", secretBytes(secret), "AES-GCM", false, ["decrypt"]);

/** Encrypts a secret for storage: `v2:` and base64 of IV followed by the AES-256-GCM ciphertext and tag. */
export async function encryptSecret(secret: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(AES_IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv },
      await encryptionKey(secret),
      encoder.encode(plaintext),
    ),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return `${V2}${base64Encode(out)}`;
}

/** Opens what encryptSecret stored, in either format, so rows written before v2 keep working. */
export async function decryptSecret(secret: string, stored: string): Promise<string> {
  const current = stored.startsWith(V2);
  const bytes = base64Decode(current ? stored.slice(V2.length) : stored);
  const key = current ? await encryptionKey(secret) : await legacyAesKey(secret);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, AES_IV_BYTES) },
    key,
    bytes.slice(AES_IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
