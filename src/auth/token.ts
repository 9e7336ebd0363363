import { BASE62, crc32, randomBase62, sha256Hex } from "../lib/crypto";

/**
 * A token is `sk_`, 43 random base62 characters (more than 256 bits: product.md asks at least 32
 * bytes) and a 6-character checksum: the CRC-32 of everything before it, in base62, as GitHub's
 * tokens do. The checksum is no secret and proves nothing about the key; it lets a typo or random
 * garbage be refused without asking the key's Durable Object or D1, and lets a secret scanner
 * recognise a real token offline. CRC-32 rather than a truncated hash: it is the common choice for
 * this, and it is certain to catch every single-character change.
 *
 * Keys made before checksums are `sk_` and 43 characters, no checksum, and keep working.
 */
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = /^sk_[0-9A-Za-z]{43}(?:[0-9A-Za-z]{6})?$/;
const OLD_FORM_LENGTH = 3 + RANDOM_LENGTH;
export const KEY_PREFIX_LENGTH = 10;

/** `value` (an unsigned 32-bit number) as `length` base62 digits, zero-padded. */
function base62Digits(value: number, length: number): string {
  let rest = value;
  let digits = "";
  for (let i = 0; i < length; i++) {
    digits = BASE62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits;
}

const checksumOf = (text: string) => base62Digits(crc32(text), CHECKSUM_LENGTH);

export function generateToken(): string {
  const body = `sk_${randomBase62(RANDOM_LENGTH)}`;
  return `${body}${checksumOf(body)}`;
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/**
 * How a well-formed token is to be checked: `checked` when it carries a valid checksum, `old` for
 * the form made before checksums, `corrupt` for a checksummed form whose checksum does not match
 * (a typo or garbage: no key can have it).
 */
export function tokenForm(token: string): "checked" | "old" | "corrupt" {
  if (token.length === OLD_FORM_LENGTH) return "old";
  const body = token.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(body) === token.slice(-CHECKSUM_LENGTH) ? "checked" : "corrupt";
}

export const keyPrefixOf = (token: string) => token.slice(0, KEY_PREFIX_LENGTH);

export const hashToken = (token: string) => sha256Hex(token);

/** The token from an `Authorization: Bearer <token>` header, or null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  return token && isWellFormedToken(token) ? token : null;
}
