import { LEGACY_SHARD } from "../db/directory/workspaces";
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
const D1_BOOKMARK = "[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}";

/**
 * A bookmark is a position in ONE database, and workspaces live in several (shards), so the
 * service's bookmark names its database: `<shard binding name>:<D1 bookmark>`, e.g.
 * `DB_2:0000002f-00000003-00005001-3b9d...`. The binding name is what the directory records as a
 * workspace's shard, so it is compared as is; it stays the same when `SHARDS` is reordered (an
 * index would not), it is not secret (it names a binding, not a database id or credential), and a
 * colon cannot occur in either part. A name is any identifier, as wrangler takes for a binding: a
 * name no shard has (a shard removed from the configuration) is no error, it only matches no shard.
 * Bookmarks from before shards had no name, and every workspace was in `DB` then: an unnamed one
 * counts as `DB`'s (LEGACY_SHARD), so a client holding one across the deploy keeps its reads.
 */
const BOOKMARK_SHAPE = new RegExp(`^(?:([A-Za-z_$][\\w$]*):)?(${D1_BOOKMARK})$`);

/** A D1 bookmark with the shard (binding name) whose database it is a position in. */
export interface ShardBookmark {
  shard: string;
  bookmark: D1SessionBookmark;
}

/** A bookmark the service handed out, in either form; null for anything else. */
export function parseBookmark(text: string): ShardBookmark | null {
  const match = BOOKMARK_SHAPE.exec(text);
  if (!match) return null;
  return { shard: match[1] ?? LEGACY_SHARD, bookmark: match[2] as string };
}

/** The bookmark as the service hands it out (see BOOKMARK_SHAPE). */
export const formatBookmark = ({ shard, bookmark }: ShardBookmark) => `${shard}:${bookmark}`;

/** Where a request's sessions may start reading: a shard's bookmark, or any replica; undefined is the primary. */
export type ReadsFrom = ShardBookmark | "first-unconstrained" | undefined;

/** The bookmark a request sent, in the form the service hands out; undefined when it sent none. */
export const sentBookmark = (reads: ReadsFrom) =>
  reads === undefined || reads === "first-unconstrained" ? undefined : formatBookmark(reads);

/** The `X-Service-Bookmark` a request sent, checked; an empty value is no header. */
export function readsFromHeader(value: string | undefined): ReadsFrom {
  const text = value?.trim();
  if (!text) return undefined;
  if (text === ANY_REPLICA) return "first-unconstrained";
  const bookmark = parseBookmark(text);
  if (bookmark) return bookmark;
  throw badRequest(
    "invalid_bookmark",
    `Invalid ${BOOKMARK_HEADER}`,
    `Send back the ${BOOKMARK_HEADER} value of an earlier response unchanged, or \`${ANY_REPLICA}\`; got ${JSON.stringify(text.slice(0, 100))}.`,
  );
}

/**
 * The constraint or bookmark the request's session on `shard` starts from. Only a read (GET, HEAD)
 * leaves the primary: a request that changes something starts there whatever it sent, so what it
 * reads before writing is current, exactly as before sessions. Its writes go to the primary in any
 * case. A bookmark of another shard (the workspace moved since, or the bookmark came from another
 * workspace's answer) says nothing about this one's database: the session starts on the primary.
 */
export function sessionStart(
  method: string,
  reads: ReadsFrom,
  shard: string,
): D1SessionConstraint | D1SessionBookmark {
  const read = method === "GET" || method === "HEAD";
  if (!read || reads === undefined) return "first-primary";
  if (reads === "first-unconstrained") return reads;
  return reads.shard === shard ? reads.bookmark : "first-primary";
}
