import { iso } from "../../lib/time";
import type { ListedEntry } from "./changelog.repo";

/**
 * The Atom 1.0 feed (RFC 4287), written with the escaping helpers below rather than an XML library:
 * the document is a fixed shape of a dozen elements, and every text and attribute value goes
 * through `xmlText`. Tests parse the result with an independent feed parser.
 */

/** XML 1.0's Char production: no control character but tab and line breaks, no U+FFFE/U+FFFF, no lone surrogate. */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  code >= 0x10000;

/** Drops the characters XML does not allow at all, not even as references (a string iterates by code point). */
function onlyXmlChars(text: string): string {
  let kept = "";
  let clean = true;
  for (const char of text) {
    if (isXmlChar(char.codePointAt(0) ?? 0)) kept += char;
    else clean = false;
  }
  return clean ? text : kept;
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text safe in XML content and in quoted attribute values; characters XML forbids are dropped. */
export function xmlText(text: string): string {
  return onlyXmlChars(text).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

export type FeedSource = {
  account: { id: string; name: string; createdAt: number };
  entries: ListedEntry[];
  /** The feed's `updated`: its newest change. */
  updatedAt: number;
  /** This deployment's public origin, which the stable ids are minted under. */
  baseUrl: string;
};

/** A stable `tag:` URI (RFC 4151): this deployment's host, a date the thing existed on, its id. */
const tagUri = (host: string, at: number, specific: string) =>
  `tag:${host},${iso(at).slice(0, 10)}:${specific}`;

/** The public page's path; with this deployment's origin in front, its address. */
export const changelogPath = (accountId: string) => `/changelog/${encodeURIComponent(accountId)}`;

/** An entry's own public page, where it is shown whole. */
export const changelogEntryPath = (accountId: string, entryId: string) =>
  `${changelogPath(accountId)}/entries/${encodeURIComponent(entryId)}`;

const origin = (baseUrl: string) => baseUrl.replace(/\/$/, "");

export function changelogPageUrl(baseUrl: string, accountId: string) {
  return `${origin(baseUrl)}${changelogPath(accountId)}`;
}

/** The entry's HTML, or for a long one its summary and a link to where it is whole (HTML, escaped like XML). */
const contentHtml = (entry: ListedEntry, link: string) =>
  entry.bodyHtml ??
  `<p>${xmlText(entry.summaryText ?? "")}</p><p><a href="${xmlText(link)}">Read the whole entry</a></p>`;

function entryXml(source: FeedSource, host: string, entry: ListedEntry) {
  const link = `${origin(source.baseUrl)}${changelogEntryPath(source.account.id, entry.id)}`;
  return `  <entry>
    <id>${xmlText(tagUri(host, entry.createdAt, `changelog/${entry.id}`))}</id>
    <title type="text">${xmlText(entry.title)}</title>
    <updated>${iso(entry.updatedAt)}</updated>
    <published>${iso(entry.publishedAt ?? entry.createdAt)}</published>
    <link rel="alternate" type="text/html" href="${xmlText(link)}"/>
    <category term="${xmlText(entry.category)}"/>
    <content type="html">${xmlText(contentHtml(entry, link))}</content>
  </entry>
`;
}

export function changelogFeedXml(source: FeedSource): string {
  const host = new URL(source.baseUrl).host;
  const page = changelogPageUrl(source.baseUrl, source.account.id);
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xmlText(tagUri(host, source.account.createdAt, `changelog/${source.account.id}`))}</id>
  <title type="text">${xmlText(`${source.account.name} changelog`)}</title>
  <updated>${iso(source.updatedAt)}</updated>
  <author><name>${xmlText(source.account.name)}</name></author>
  <link rel="self" type="application/atom+xml" href="${xmlText(`${page}/feed.xml`)}"/>
  <link rel="alternate" type="text/html" href="${xmlText(page)}"/>
${source.entries.map((entry) => entryXml(source, host, entry)).join("")}</feed>
`;
}
