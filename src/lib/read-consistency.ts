import { badRequest } from "./errors";

/**
 * Reads near the client (D1's Sessions API). Every /v1 response carries the request's D1 bookmark
 * in this header; a request that sends one back may read from a replica at least that fresh, and
 * `any` accepts any replica. Without it a request reads the primary, as before sessions.
 */
export const BOOKMARK_HEADER = "X-Service-Bookmark";
export const ANY_REPLICA = "any";

/**
 * D1's bookmarks are four hex groups (8-8-8-32), locally too. Anything else is refused before it
 * reaches D1: locally D1 takes any string, and the session would then hand that string back as its
 * bookmark for good (a session keeps the greatest bookmark it has seen, and "z" sorts after "0").
 */
const BOOKMARK_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

export const isBookmark = (value: string) => BOOKMARK_SHAPE.test(value);

/** Where a session may start reading: a bookmark, or any replica; undefined is the primary. */
export type ReadsFrom = D1SessionBookmark | "first-unconstrained" | undefined;

/** The `X-Service-Bookmark` a request sent, checked; an empty value is no header. */
export function readsFromHeader(value: string | undefined): ReadsFrom {
  const text = value?.trim();
  if (!text) return undefined;
  if (text === ANY_REPLICA) return "first-unconstrained";
  if (isBookmark(text)) return text;
  throw badRequest(
    "invalid_bookmark",
    `Invalid ${BOOKMARK_HEADER}`,
    `Send back the ${BOOKMARK_HEADER} value of an earlier response unchanged, or \`${ANY_REPLICA}\`; got ${JSON.stringify(text.slice(0, 100))}.`,
  );
}

/**
 * The constraint or bookmark a request's session starts from. Only a read (GET, HEAD) leaves the
 * primary: a request that changes something starts there whatever it sent, so what it reads before
 * writing is current, exactly as before sessions. Its writes go to the primary in any case.
 */
export function sessionStart(method: string, reads: ReadsFrom): D1SessionConstraint | D1SessionBookmark {
  const read = method === "GET" || method === "HEAD";
  return read && reads !== undefined ? reads : "first-primary";
}
