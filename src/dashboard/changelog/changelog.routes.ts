import { dashboardRoute, formBody } from "../routes";
import { ChangelogListQuery, DoneQuery, EntryForm, EntryPath } from "./changelog-forms";

const FORM_PROBLEMS =
  "A value the API refuses (an empty title, a scheduled entry without a future time, a published entry moved back) re-renders the editor with the API's reason and the values sent (400, or 409 when the cron published the entry meanwhile).";

const FIELDS =
  "Title, category, Markdown body, and status: draft, scheduled (with `published_at`, a UTC date and time in the future) or published (`published_at` empty for now, or an earlier time). A time left in the field for a draft is dropped.";

export const changelogListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/changelog",
  summary: "Changelog",
  description:
    "The workspace's changelog entries in every status, newest written first (GET /v1/changelog): title, category, status, published at; filter by status and category; paginated by `offset` and `limit` (default 20). Links the public page /changelog/{account_id} and its Atom feed. Everyone signed in sees it; New entry is for admins and owners (changelog writes are the API's `write` level, which the dashboard gives admins and owners).",
  request: { query: ChangelogListQuery },
});

export const newEntryRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/changelog/new",
  summary: "New changelog entry form",
  description: `The editor: ${FIELDS} Preview shows the body rendered.`,
  role: "admin",
});

export const createEntryRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/changelog",
  summary: "Create a changelog entry",
  description: `The form through POST /v1/changelog's schema and \`createChangelogEntry\`. Redirects (303) to the entry. ${FORM_PROBLEMS}`,
  request: { body: formBody(EntryForm) },
  role: "admin",
  success: 303,
});

export const previewNewEntryRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/changelog/preview",
  summary: "Preview a new entry",
  description:
    "Saves nothing: the new-entry editor again with the values sent and the Markdown body rendered and sanitized by the same renderer and limits as the API (raw HTML dropped, no script, no event attribute). htmx swaps in the preview section alone; without script the whole page shows.",
  request: { body: formBody(EntryForm) },
  role: "admin",
});

export const entryRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/changelog/{id}",
  summary: "Changelog entry",
  description:
    "An entry: its status, times and the body as published (the stored `body_html`), with a link to it on the public page once published. Admins and owners also get the editor, Preview and Delete; agents see it read-only.",
  request: { params: EntryPath, query: DoneQuery },
});

export const previewEntryRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/changelog/{id}/preview",
  summary: "Preview an entry's changes",
  description:
    "Saves nothing: the entry's page with the editor's values kept and the Markdown body rendered as Save would render it. htmx swaps in the preview section alone.",
  request: { params: EntryPath, body: formBody(EntryForm) },
  role: "admin",
});

export const saveEntryRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/changelog/{id}",
  summary: "Save a changelog entry",
  description: `The editor's values as PATCH /v1/changelog/{id} (its schema, then \`patchChangelogEntry\`). \`published_at\` is sent only when changed from the time shown, so saving keeps a published entry's exact time and publishing a scheduled entry now works. Redirects (303) to the entry. ${FORM_PROBLEMS}`,
  request: { params: EntryPath, body: formBody(EntryForm) },
  role: "admin",
  success: 303,
});

export const deleteEntryRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/changelog/{id}/delete",
  summary: "Delete a changelog entry",
  description:
    "After the page's confirmation: as DELETE /v1/changelog/{id}, in any status (a published entry leaves the public page and the feed). Redirects (303) to the list.",
  request: { params: EntryPath },
  role: "admin",
  success: 303,
});
