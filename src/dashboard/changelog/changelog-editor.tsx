import { raw } from "hono/html";
import { CHANGELOG_CATEGORIES, CHANGELOG_STATUSES, type ChangelogStatus } from "../../db/schema/changelog";
import { CsrfField, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import type { EntryDraft } from "./changelog-forms";

export const PREVIEW_ID = "changelog-preview";

/**
 * What the preview section shows: the body rendered (sanitized HTML from the API's renderer, so
 * it is inserted as it is, as the public page does), or why it could not be.
 */
export type Preview = { html: string; note: string } | { problem: Problem } | undefined;

/** The rendered body, or a problem; htmx swaps this section alone after Preview. */
export function PreviewSection(props: { preview: Preview }) {
  const { preview } = props;
  return (
    <section class="panel" id={PREVIEW_ID} aria-live="polite">
      <h2>Preview</h2>
      {preview === undefined ? (
        <p class="muted">Preview shows the body as the public page will.</p>
      ) : "problem" in preview ? (
        <ProblemNotice problem={preview.problem} />
      ) : (
        <>
          <p class="muted">{preview.note}</p>
          <div class="changelog-body">{raw(preview.html)}</div>
        </>
      )}
    </section>
  );
}

/**
 * The editor's fields and buttons. Save posts the form; Preview posts the same values to
 * `previewAction` (htmx swaps the preview section in; without script the page comes back whole).
 * A published entry stays published (the API's rule), so its status offers nothing else.
 */
export function EntryEditor(props: {
  action: string;
  previewAction: string;
  csrfToken: string;
  values: Partial<EntryDraft>;
  currentStatus?: ChangelogStatus;
  submit: string;
}) {
  const { values } = props;
  const statuses = props.currentStatus === "published" ? ["published"] : CHANGELOG_STATUSES;
  return (
    <form method="post" action={props.action} class="stack">
      <CsrfField token={props.csrfToken} />
      <label>
        Title
        <input name="title" required maxlength={200} value={values.title ?? ""} />
      </label>
      <label>
        Category
        <select name="category" aria-label="Category">
          {CHANGELOG_CATEGORIES.map((category) => (
            <option value={category} selected={category === values.category}>
              {category}
            </option>
          ))}
        </select>
      </label>
      <label>
        Body (Markdown)
        <textarea name="body_markdown" rows={14}>
          {values.body_markdown ?? ""}
        </textarea>
        <small>GitHub-flavoured Markdown; raw HTML is not rendered.</small>
      </label>
      <label>
        Status
        <select name="status" aria-label="Status">
          {statuses.map((status) => (
            <option value={status} selected={status === (values.status ?? "draft")}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label>
        Published at (UTC)
        <input type="datetime-local" name="published_at" value={values.published_at ?? ""} />
        <small>Scheduled: when it publishes itself. Published: empty for now, or an earlier time.</small>
      </label>
      <div class="actions">
        <button type="submit">{props.submit}</button>
        <button
          type="submit"
          class="secondary"
          formaction={props.previewAction}
          formnovalidate
          hx-post={props.previewAction}
          hx-target={`#${PREVIEW_ID}`}
          hx-select={`#${PREVIEW_ID}`}
          hx-swap="outerHTML"
        >
          Preview
        </button>
      </div>
    </form>
  );
}

export function NewEntryPage(props: {
  csrfToken: string;
  draft?: EntryDraft | undefined;
  problem?: Problem | undefined;
  preview?: Preview;
}) {
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/changelog">Changelog</a>
      </p>
      <PageHeader title="New entry" />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <EntryEditor
          action="/dashboard/changelog"
          previewAction="/dashboard/changelog/preview"
          csrfToken={props.csrfToken}
          values={props.draft ?? {}}
          submit="Save"
        />
      </section>
      <PreviewSection preview={props.preview} />
    </>
  );
}
