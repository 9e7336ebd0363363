import { badRequest } from "./errors";

/**
 * An `If-Match` / `If-None-Match` field (RFC 9110 §13.1): `*`, or a list of entity tags, each
 * with `weak` set for a `W/` prefix. A tag's opaque part may hold commas, so the list is read tag
 * by tag rather than split.
 */
export type EntityTagList = "*" | Array<{ weak: boolean; tag: string }>;

const ENTITY_TAG = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(,|$)/y;

/** The parsed field, undefined when absent; anything but the grammar is a 400 naming the header. */
export function parseEntityTags(header: string, value: string | undefined): EntityTagList | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "*") return "*";
  const tags: Array<{ weak: boolean; tag: string }> = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < value.length) {
    const match = ENTITY_TAG.exec(value);
    if (!match) break;
    tags.push({ weak: match[1] !== undefined, tag: `"${match[2]}"` });
    if (match[3] === "") return tags;
  }
  // A list may end with a comma (RFC 9110 §5.6.1: empty elements are ignored).
  if (tags.length > 0 && ENTITY_TAG.lastIndex === value.length) return tags;
  throw badRequest(
    "invalid_if_match",
    `Malformed ${header}`,
    `${header} is "*" or a list of entity tags such as "v7" (quotes included), as the ETag header gives them.`,
  );
}

/** If-Match compares strongly: a weak tag never matches (RFC 9110 §13.1.1). */
export const strongTags = (list: EntityTagList) =>
  list === "*" ? "*" : list.filter((t) => !t.weak).map((t) => t.tag);

/** If-None-Match compares weakly: `W/"x"` matches `"x"` (RFC 9110 §13.1.2). */
export const noneMatch = (list: EntityTagList | undefined, etag: string) =>
  list === undefined || (list !== "*" && !list.some((t) => t.tag === etag));
