import { monotonicFactory } from "ulid";

/** Every public id is `<prefix>_<ULID>`, so ids sort by creation time (product.md). */
export const ID_PREFIXES = [
  "acc",
  "key",
  "inb",
  "tkv",
  "shr",
  "cus",
  "msg",
  "att",
  "tag",
  "srv",
  "rsp",
  "eml",
  "cmp",
  "grp",
  "con",
  "aut",
  "enr",
  "chg",
  "usr",
  "mem",
  "inv",
  "evt",
  "dlv",
  "req",
  "sup",
  "smtp",
  "rpt",
  "drp",
  "whk",
  "vw",
  "srp",
  "tpl",
  "tpv",
  "sla",
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * ulid's default generator asks crypto for one byte per character, 16 calls per id: in the
 * profile of a ticket list that was 7% of the worker's time, spent on the request id alone. This
 * hands out 32-bit words from one crypto call per 256 of them; still crypto-strength randomness,
 * and exactly uniform over ulid's 32 characters (2^32 is a multiple of 32).
 */
const randomWords = new Uint32Array(256);
let nextWord = randomWords.length;

function bufferedRandom(): number {
  if (nextWord === randomWords.length) {
    crypto.getRandomValues(randomWords);
    nextWord = 0;
  }
  return (randomWords[nextWord++] ?? 0) / 2 ** 32;
}

const nextUlid = monotonicFactory(bufferedRandom);

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid()}`;
}

const ULID_PATTERN = "[0-9A-HJKMNP-TV-Z]{26}";

/** A regular expression source matching an id of the given prefix, for path-parameter schemas. */
export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_${ULID_PATTERN}$`;
}
