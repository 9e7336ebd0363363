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
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const nextUlid = monotonicFactory();

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid()}`;
}

const ULID_PATTERN = "[0-9A-HJKMNP-TV-Z]{26}";

/** A regular expression source matching an id of the given prefix, for path-parameter schemas. */
export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_${ULID_PATTERN}$`;
}
