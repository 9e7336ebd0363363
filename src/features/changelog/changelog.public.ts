import type { Db } from "../../db/client";
import { sha256Hex } from "../../lib/crypto";
import { idPattern } from "../../lib/ids";
import {
  findPublishedEntry,
  findPublishingAccount,
  type ListedEntry,
  PUBLIC_ENTRIES,
  publishedEntriesQuery,
} from "./changelog.repo";

const ACCOUNT_ID = new RegExp(idPattern("acc"));
const ENTRY_ID = new RegExp(idPattern("chg"));

/** Whether `value` has the shape of an account id (anything else matches no workspace). */
export const isAccountId = (value: string) => ACCOUNT_ID.test(value);

export type PublicChangelog = {
  account: { id: string; name: string; createdAt: number; updatedAt: number };
  entries: ListedEntry[];
  /** The newest change the page or feed shows: an entry's `updated_at`, or the workspace's (its name). */
  updatedAt: number;
  /** Which page of PUBLIC_ENTRIES entries (1: the newest), and whether an older one follows. */
  page: number;
  hasOlder: boolean;
};

/**
 * Page `page` of the public changelog (the feed is page 1), or null for an unknown, malformed or
 * suspended workspace.
 */
export async function loadPublicChangelog(
  db: Db,
  accountId: string,
  page = 1,
): Promise<PublicChangelog | null> {
  // A malformed id cannot match a row: answer without a database trip.
  if (!ACCOUNT_ID.test(accountId)) return null;
  const account = await findPublishingAccount(db, accountId);
  if (!account) return null;
  const rows = await publishedEntriesQuery(db, accountId, PUBLIC_ENTRIES + 1, (page - 1) * PUBLIC_ENTRIES);
  const entries = rows.slice(0, PUBLIC_ENTRIES);
  const updatedAt = Math.max(account.updatedAt, ...entries.map((entry) => entry.updatedAt));
  return { account, entries, updatedAt, page, hasOlder: rows.length > PUBLIC_ENTRIES };
}

/** One published entry of an active workspace, whole, or null. */
export async function loadPublicEntry(db: Db, accountId: string, entryId: string) {
  if (!ACCOUNT_ID.test(accountId) || !ENTRY_ID.test(entryId)) return null;
  const account = await findPublishingAccount(db, accountId);
  const entry = account ? await findPublishedEntry(db, accountId, entryId) : null;
  return account && entry ? { account, entry } : null;
}

/**
 * A strong ETag of exactly what the feed is made of: the workspace's state and each shown entry's
 * id and `updated_at` (every edit, and the cron's publication, moves `updated_at`). A deleted or
 * newly published entry changes the list, so the tag too.
 */
export async function changelogEtag(changelog: PublicChangelog, baseUrl: string): Promise<string> {
  const parts = [baseUrl, changelog.account.id, changelog.account.updatedAt, changelog.account.name];
  for (const entry of changelog.entries) parts.push(`${entry.id}:${entry.updatedAt}`);
  return `"${(await sha256Hex(parts.join("\n"))).slice(0, 32)}"`;
}

/** HTTP dates have whole seconds; a resource modified within the second counts as that second. */
const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Whether the client's copy is current (RFC 9110 §13.2.2): `If-None-Match` decides when sent
 * (weak comparison, `*` matches), otherwise `If-Modified-Since`.
 */
export function isNotModified(
  headers: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined },
  etag: string,
  lastModified: number,
): boolean {
  if (headers.ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
    return headers.ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === etag);
  }
  if (headers.ifModifiedSince === undefined) return false;
  const since = Date.parse(headers.ifModifiedSince);
  return !Number.isNaN(since) && wholeSeconds(lastModified) <= since;
}
