import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { ChangelogCategory } from "../../db/schema/changelog";
import { ASSETS } from "../../ui/layout";
import { changelogEntryPath, changelogPath } from "./changelog.feed";
import type { ListedEntry } from "./changelog.repo";

const DOCTYPE = raw("<!doctype html>");

const CATEGORY_WORDS: Record<ChangelogCategory, string> = {
  new: "New",
  improved: "Improved",
  fixed: "Fixed",
  deprecated: "Deprecated",
};

/** The date only: the page runs no script (see its CSP), so it cannot localise times. */
const formatDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One entry; its id is the anchor older links point at. The title is text (Hono JSX escapes it);
 * the body is the HTML sanitized when the entry was written, so it is inserted as it is. A long
 * entry (no `bodyHtml` here) shows its summary, as text, and a link to its own page.
 */
function Entry(props: { entry: ListedEntry; accountId: string }) {
  const { entry } = props;
  const publishedAt = entry.publishedAt ?? entry.createdAt;
  const own = changelogEntryPath(props.accountId, entry.id);
  return (
    <article class="changelog-entry" id={entry.id}>
      <header>
        <h2>
          <a href={own}>{entry.title}</a>
        </h2>
        <span class="badge">{CATEGORY_WORDS[entry.category]}</span>{" "}
        <time datetime={new Date(publishedAt).toISOString()}>{formatDate(publishedAt)}</time>
      </header>
      {entry.bodyHtml === null ? (
        <div class="changelog-body">
          <p>{entry.summaryText}</p>
          <p>
            <a href={own}>Read the whole entry</a>
          </p>
        </div>
      ) : (
        <div class="changelog-body">{raw(entry.bodyHtml)}</div>
      )}
    </article>
  );
}

/** The document every public changelog page shares: no script, the feed linked. */
function PublicDocument(props: { title: string; heading: string; feedUrl: string; children: Child }) {
  return (
    <>
      {DOCTYPE}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title}</title>
          <link rel="stylesheet" href={`${ASSETS}/app.css`} />
          {/* Without it the browser asks for /favicon.ico, which is a 404. */}
          <link rel="icon" href={`${ASSETS}/favicon.svg`} type="image/svg+xml" />
          <link rel="alternate" type="application/atom+xml" title={props.heading} href={props.feedUrl} />
        </head>
        <body class="public">
          <main class="card wide">
            <h1>{props.heading}</h1>
            <p>
              <a href={props.feedUrl}>Atom feed</a>
            </p>
            {props.children}
          </main>
        </body>
      </html>
    </>
  );
}

/** A page of a workspace's public changelog, with links to the newer and older pages. */
export function ChangelogPage(props: {
  name: string;
  feedUrl: string;
  accountId: string;
  entries: ListedEntry[];
  page: number;
  hasOlder: boolean;
}) {
  const title = `${props.name} changelog`;
  const pageHref = (page: number) => `${changelogPath(props.accountId)}${page > 1 ? `?page=${page}` : ""}`;
  return (
    <PublicDocument
      title={props.page > 1 ? `${title} (page ${props.page})` : title}
      heading={title}
      feedUrl={props.feedUrl}
    >
      {props.entries.length === 0 ? (
        <p>Nothing published{props.page > 1 ? " this far back" : " yet"}.</p>
      ) : null}
      {props.entries.map((entry) => (
        <Entry entry={entry} accountId={props.accountId} />
      ))}
      <nav class="pager" aria-label="Pages">
        {props.page > 1 ? <a href={pageHref(props.page - 1)}>Newer entries</a> : null}{" "}
        {props.hasOlder ? <a href={pageHref(props.page + 1)}>Older entries</a> : null}
      </nav>
    </PublicDocument>
  );
}

/** One entry's own page: shown whole, however long (at most the 1 MB a body renders to). */
export function ChangelogEntryPage(props: {
  name: string;
  feedUrl: string;
  accountId: string;
  entry: ListedEntry;
}) {
  const heading = `${props.name} changelog`;
  return (
    <PublicDocument title={`${props.entry.title} · ${heading}`} heading={heading} feedUrl={props.feedUrl}>
      <p>
        <a href={changelogPath(props.accountId)}>All entries</a>
      </p>
      <Entry entry={props.entry} accountId={props.accountId} />
    </PublicDocument>
  );
}
