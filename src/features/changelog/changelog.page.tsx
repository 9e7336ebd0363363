import { raw } from "hono/html";
import { ASSETS } from "../../dashboard/layout";
import type { ChangelogCategory } from "../../db/schema/changelog";
import type { ChangelogRow } from "./changelog.repo";

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
 * One entry; its id is the anchor the feed links to. The title is text (Hono JSX escapes it); the
 * body is the HTML sanitized when the entry was written, so it is inserted as it is.
 */
function Entry(props: { entry: ChangelogRow }) {
  const { entry } = props;
  const publishedAt = entry.publishedAt ?? entry.createdAt;
  return (
    <article class="changelog-entry" id={entry.id}>
      <header>
        <h2>{entry.title}</h2>
        <span class="badge">{CATEGORY_WORDS[entry.category]}</span>{" "}
        <time datetime={new Date(publishedAt).toISOString()}>{formatDate(publishedAt)}</time>
      </header>
      <div class="changelog-body">{raw(entry.bodyHtml)}</div>
    </article>
  );
}

/** A workspace's public changelog: its latest published entries and a link to the Atom feed. */
export function ChangelogPage(props: { name: string; feedUrl: string; entries: ChangelogRow[] }) {
  const title = `${props.name} changelog`;
  return (
    <>
      {DOCTYPE}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{title}</title>
          <link rel="stylesheet" href={`${ASSETS}/app.css`} />
          {/* Without it the browser asks for /favicon.ico, which is a 404. */}
          <link rel="icon" href={`${ASSETS}/favicon.svg`} type="image/svg+xml" />
          <link rel="alternate" type="application/atom+xml" title={title} href={props.feedUrl} />
        </head>
        <body class="public">
          <main class="card wide">
            <h1>{title}</h1>
            <p>
              <a href={props.feedUrl}>Atom feed</a>
            </p>
            {props.entries.length === 0 ? <p>Nothing published yet.</p> : null}
            {props.entries.map((entry) => (
              <Entry entry={entry} />
            ))}
          </main>
        </body>
      </html>
    </>
  );
}
