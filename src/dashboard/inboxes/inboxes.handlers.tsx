import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import { listConnections } from "../../features/connections/connections.repo";
import { CreateInboxBodySchema, UpdateInboxBodySchema } from "../../features/inboxes/inboxes.schemas";
import {
  createInbox,
  listAccountInboxes,
  removeInbox,
  updateInbox,
} from "../../features/inboxes/inboxes.service";
import { createRouter, mount } from "../../lib/router";
import { renderPage, sessionOf } from "../page";
import { asApiBody, formProblem, type Problem } from "./form-problem";
import type { InboxSettingsDraft } from "./inbox-forms";
import { InboxListPage } from "./inbox-list.page";
import {
  createInboxRoute,
  deleteInboxRoute,
  inboxListRoute,
  inboxRoute,
  newInboxRoute,
  saveInboxRoute,
} from "./inboxes.routes";
import { NewInboxPage } from "./new-inbox.page";
import { renderInbox } from "./render-inbox";
import { webhooksRouter } from "./webhook.handlers";

export const inboxesRouter = createRouter()
  .openapi(inboxListRoute, async (c) => {
    const { limit, offset, done } = c.req.valid("query");
    // The API pages by page number: the dashboard's offset is rounded down to a page's start.
    const page = Math.floor(offset / limit) + 1;
    const list = await listAccountInboxes(c.var.ctx, { page, limit });
    return renderPage(
      c,
      { title: "Inboxes", nav: "Inboxes" },
      <InboxListPage
        inboxes={list.data}
        total={list.pagination.total}
        limit={limit}
        offset={(page - 1) * limit}
        canManage={hasRole(sessionOf(c), "admin")}
        done={done}
      />,
    );
  })
  // Before /dashboard/inboxes/{id}, which would otherwise read "new" as an id.
  .openapi(newInboxRoute, async (c) => renderNewInbox(c))
  .openapi(createInboxRoute, async (c) => {
    const form = c.req.valid("form");
    try {
      const inbox = await createInbox(c.var.ctx, asApiBody(CreateInboxBodySchema, form));
      return c.redirect(`/dashboard/inboxes/${inbox.id}?done=created`, 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderNewInbox(c, form, problem, status);
    }
  })
  .openapi(inboxRoute, async (c) =>
    renderInbox(c, c.req.valid("param").id, { done: c.req.valid("query").done }),
  )
  .openapi(saveInboxRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    try {
      await updateInbox(c.var.ctx, id, asApiBody(UpdateInboxBodySchema, form));
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderInbox(c, id, { problem, settingsDraft: form }, status);
    }
    return c.redirect(`/dashboard/inboxes/${id}?done=saved`, 303);
  })
  .openapi(deleteInboxRoute, async (c) => {
    await removeInbox(c.var.ctx, c.req.valid("param").id);
    return c.redirect("/dashboard/inboxes?done=deleted", 303);
  });

mount(inboxesRouter, "/", webhooksRouter);

async function renderNewInbox(
  c: Context<AppEnv>,
  draft?: InboxSettingsDraft,
  problem?: Problem,
  status: 200 | 400 | 409 = 200,
) {
  const { db, accountId } = c.var.ctx;
  const connections = await listConnections(db, accountId);
  const domains = connections.filter((row) => row.status === "verified").map((row) => row.domain);
  return renderPage(
    c,
    { title: "New inbox", nav: "Inboxes", status },
    <NewInboxPage csrfToken={c.var.csrfToken} domains={domains} draft={draft} problem={problem} />,
  );
}
