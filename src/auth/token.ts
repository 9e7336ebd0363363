import { randomBase62, sha256Hex } from "../lib/crypto";

/** `sk_` and 43 base62 characters: more than 256 random bits (product.md asks at least 32 bytes). */
const TOKEN_BODY_LENGTH = 43;
const TOKEN_PATTERN = /^sk_[0-9A-Za-z]{43}$/;
export const KEY_PREFIX_LENGTH = 10;

export function generateToken(): string {
  return `sk_${randomBase62(TOKEN_BODY_LENGTH)}`;
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
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
