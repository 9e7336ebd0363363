import type { Db } from "../../db/client";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { utf8Length } from "../../lib/text";
import { toChangelogEntry } from "./changelog.dto";
import { renderMarkdownWithText } from "./changelog.markdown";
import { changelogQueries, deleteEntry, findEntry, insertEntry, updateEntryIfStatus } from "./changelog.repo";
import type { ChangelogListQuery, CreateChangelogInput, UpdateChangelogInput } from "./changelog.schemas";
import { nextPublication } from "./changelog.states";
import { summaryFor } from "./changelog.summary";

/**
 * The rendered HTML's cap, in UTF-8 bytes. Markdown can grow when rendered (a long link definition
 * used many times is copied into every use), and the row must stay well under D1's 2 MB.
 */
export const MAX_HTML_BYTES = 1_000_000;

/**
 * The body's columns as every write stores them: the sanitized HTML, capped, and the summary the
 * public page and feed show instead when it is long.
 */
async function bodyColumns(markdown: string) {
  const { html, text } = await renderMarkdownWithText(markdown);
  if (utf8Length(html) > MAX_HTML_BYTES) {
    throw badRequest(
      "body_too_large",
      "Body too large once rendered",
      `body_markdown renders to more than ${MAX_HTML_BYTES} bytes of HTML; shorten it or repeat long links less.`,
    );
  }
  return { bodyMarkdown: markdown, bodyHtml: html, summaryText: summaryFor(html, text) };
}

/** The body as every write stores it (also the dashboard's preview, so it shows what Save would). */
export async function renderBody(markdown: string) {
  return (await bodyColumns(markdown)).bodyHtml;
}

const toMs = (at: string | undefined) => (at === undefined ? undefined : Date.parse(at));

export async function listChangelog(db: Db, accountId: string, query: ChangelogListQuery) {
  const { page, total } = changelogQueries(db, accountId, query);
  const [rows, [counted]] = await db.batch([page, total]);
  return { entries: rows.map(toChangelogEntry), total: counted?.total ?? 0 };
}

export async function createChangelogEntry(
  db: Db,
  accountId: string,
  input: CreateChangelogInput,
  now = Date.now(),
) {
  const publication = nextPublication(
    null,
    { status: input.status, publishedAt: toMs(input.published_at) },
    now,
  );
  const row = await insertEntry(db, {
    id: newId("chg"),
    accountId,
    title: input.title,
    ...(await bodyColumns(input.body_markdown)),
    category: input.category,
    ...publication,
    createdAt: now,
    updatedAt: now,
  });
  return toChangelogEntry(row);
}

export async function getChangelogEntry(db: Db, accountId: string, id: string) {
  const row = await findEntry(db, accountId, id);
  if (!row) throw notFound(`Changelog entry ${id}`);
  return toChangelogEntry(row);
}

export async function patchChangelogEntry(
  db: Db,
  accountId: string,
  id: string,
  input: UpdateChangelogInput,
  now = Date.now(),
) {
  const current = await findEntry(db, accountId, id);
  if (!current) throw notFound(`Changelog entry ${id}`);
  const publication = nextPublication(
    current,
    { status: input.status, publishedAt: toMs(input.published_at) },
    now,
  );
  const updated = await updateEntryIfStatus(db, accountId, id, current.status, {
    title: input.title,
    category: input.category,
    ...(input.body_markdown === undefined ? {} : await bodyColumns(input.body_markdown)),
    ...publication,
    updatedAt: now,
  });
  if (updated) return toChangelogEntry(updated);
  if (!(await findEntry(db, accountId, id))) throw notFound(`Changelog entry ${id}`);
  throw conflict(
    "changelog_entry_changed",
    "Entry changed meanwhile",
    "The entry's status changed while this update was made (it was published on schedule); read it and try again.",
  );
}

export async function removeChangelogEntry(db: Db, accountId: string, id: string) {
  if (!(await deleteEntry(db, accountId, id))) throw notFound(`Changelog entry ${id}`);
}
