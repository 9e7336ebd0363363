/**
 * A request id is `req_<ULID>`; a log row keeps only the ULID's 16 bytes (a blob, written from
 * hex with `unhex`), as the prefix is the same for every log. These convert between the two.
 */
const PREFIX = "req_";
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** The ULID's 32 hex digits, or null for anything that is not a request id. */
export function requestIdToHex(id: string): string | null {
  const ulid = id.startsWith(PREFIX) ? id.slice(PREFIX.length) : "";
  if (!ULID_PATTERN.test(ulid)) return null;
  let value = 0n;
  for (const char of ulid) value = value * 32n + BigInt(CROCKFORD.indexOf(char));
  return value.toString(16).padStart(32, "0");
}

/** The request id of 32 hex digits (SQLite's `hex()` of the stored bytes). */
export function requestIdFromHex(hex: string): string {
  let value = BigInt(`0x${hex}`);
  let ulid = "";
  for (let i = 0; i < 26; i++) {
    ulid = CROCKFORD[Number(value % 32n)] + ulid;
    value /= 32n;
  }
  return PREFIX + ulid;
}

/** When the id was made (a ULID begins with its epoch milliseconds). */
export function requestIdTime(hex: string): number {
  return Number.parseInt(hex.slice(0, 12), 16);
}
