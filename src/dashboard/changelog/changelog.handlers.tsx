import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import {
  CreateChangelogBodySchema,
  UpdateChangelogBodySchema,
} from "../../features/changelog/changelog.schemas";
import {
  createChangelogEntry,
  getChangelogEntry,
  listChangelog,
  patchChangelogEntry,
  removeChangelogEntry,
  renderBody,
} from "../../features/changelog/changelog.service";
import { createRouter } from "../../lib/router";
import { asApiBody, formProblem, type Problem } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import {
  changelogListRoute,
  createEntryRoute,
  deleteEntryRoute,
  entryRoute,
  newEntryRoute,
  previewEntryRoute,
  previewNewEntryRoute,
  saveEntryRoute,
} from "./changelog.routes";
import { NewEntryPage, type Preview } from "./changelog-editor";
import { EntryPage, type EntryPageProps } from "./changelog-entry.page";
import { asCreateBody, asPatchBody, type EntryDraft } from "./changelog-forms";
import { ChangelogListPage } from "./changelog-list.page";

/** The API's own rule for a body (its size cap), for a preview that saves nothing. */
const PreviewBody = z.object({ body_markdown: CreateChangelogBodySchema.shape.body_markdown });

/** The body rendered exactly as Save would render it, or why it could not be. */
async function previewOf(markdown: string | undefined): Promise<Preview> {
  try {
    const body = asApiBody(PreviewBody, { body_markdown: markdown ?? "" });
    return { html: await renderBody(body.body_markdown), note: "Not saved yet: rendered as Save would." };
  } catch (error) {
    return { problem: formProblem(error).problem };
  }
}

async function renderEntry(
  c: Context<AppEnv>,
  id: string,
  extras: Pick<EntryPageProps, "done" | "problem" | "draft" | "preview">,
  status: 200 | 400 | 409 = 200,
) {
  const { db, accountId } = c.var.ctx;
  const entry = await getChangelogEntry(db, accountId, id);
  return renderPage(
    c,
    { title: entry.title, nav: "Changelog", status },
    <EntryPage
      entry={entry}
      accountId={accountId}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      {...extras}
    />,
  );
}

function renderNew(
  c: Context<AppEnv>,
  extras: { draft?: EntryDraft; problem?: Problem; preview?: Preview } = {},
  status: 200 | 400 | 409 = 200,
) {
  return renderPage(
    c,
    { title: "New entry", nav: "Changelog", status },
    <NewEntryPage csrfToken={c.var.csrfToken} {...extras} />,
  );
}

export const changelogPagesRouter = createRouter()
  .openapi(changelogListRoute, async (c) => {
    const { limit, offset, status, category, done } = c.req.valid("query");
    const { db, accountId } = c.var.ctx;
    const list = await listChangelog(db, accountId, { limit, offset, status, category });
    return renderPage(
      c,
      { title: "Changelog", nav: "Changelog" },
      <ChangelogListPage
        entries={list.entries}
        total={list.total}
        limit={limit}
        offset={offset}
        status={status}
        category={category}
        accountId={accountId}
        canManage={hasRole(sessionOf(c), "admin")}
        done={done}
      />,
    );
  })
  // Before /dashboard/changelog/{id}, which would otherwise read "new" as an id.
  .openapi(newEntryRoute, (c) => renderNew(c))
  .openapi(createEntryRoute, async (c) => {
    const form = c.req.valid("form");
    const { db, accountId, now } = c.var.ctx;
    try {
      const body = asApiBody(CreateChangelogBodySchema, asCreateBody(form));
      const entry = await createChangelogEntry(db, accountId, body, now);
      return c.redirect(`/dashboard/changelog/${entry.id}?done=created`, 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderNew(c, { draft: form, problem }, status);
    }
  })
  .openapi(previewNewEntryRoute, async (c) => {
    const form = c.req.valid("form");
    return renderNew(c, { draft: form, preview: await previewOf(form.body_markdown) });
  })
  .openapi(entryRoute, (c) => renderEntry(c, c.req.valid("param").id, { done: c.req.valid("query").done }))
  .openapi(previewEntryRoute, async (c) => {
    const form = c.req.valid("form");
    const preview = await previewOf(form.body_markdown);
    return renderEntry(c, c.req.valid("param").id, { draft: form, preview });
  })
  .openapi(saveEntryRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    const { db, accountId, now } = c.var.ctx;
    try {
      const current = await getChangelogEntry(db, accountId, id);
      const body = asApiBody(UpdateChangelogBodySchema, asPatchBody(form, current));
      await patchChangelogEntry(db, accountId, id, body, now);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderEntry(c, id, { problem, draft: form }, status);
    }
    return c.redirect(`/dashboard/changelog/${id}?done=saved`, 303);
  })
  .openapi(deleteEntryRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { db, accountId } = c.var.ctx;
    await removeChangelogEntry(db, accountId, id);
    return c.redirect("/dashboard/changelog?done=deleted", 303);
  });
