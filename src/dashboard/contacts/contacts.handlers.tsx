import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import {
  CreateContactGroupBodySchema,
  UpdateContactGroupBodySchema,
} from "../../features/contact-groups/contact-groups.schemas";
import {
  createContactGroup,
  listContactGroups,
  patchContactGroup,
  removeContactGroup,
} from "../../features/contact-groups/contact-groups.service";
import { createRouter, mount } from "../../lib/router";
import { asApiBody, formProblem, type Problem } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import type { GroupDraft } from "./contact-forms";
import {
  createGroupRoute,
  deleteGroupRoute,
  groupListRoute,
  groupRoute,
  newGroupRoute,
  saveGroupRoute,
} from "./contacts.routes";
import { GroupListPage } from "./group-list.page";
import { membersRouter } from "./members.handlers";
import { NewGroupPage } from "./new-group.page";
import { renderGroup } from "./render-group";

/** The form's description as the API takes it: an empty field clears it. */
const groupBody = (form: GroupDraft) => ({ name: form.name, description: form.description ?? "" });

export const contactsRouter = createRouter()
  .openapi(groupListRoute, async (c) => {
    const { limit, offset, done } = c.req.valid("query");
    const { groups, total } = await listContactGroups(c.var.ctx.db, c.var.ctx.accountId, limit, offset);
    return renderPage(
      c,
      { title: "Contacts", nav: "Contacts" },
      <GroupListPage
        groups={groups}
        total={total}
        limit={limit}
        offset={offset}
        canManage={hasRole(sessionOf(c), "admin")}
        done={done}
      />,
    );
  })
  // Before /dashboard/contacts/{id}, which would otherwise read "new" as an id.
  .openapi(newGroupRoute, async (c) => renderNewGroup(c))
  .openapi(createGroupRoute, async (c) => {
    const form = c.req.valid("form");
    const { db, accountId, now } = c.var.ctx;
    try {
      const input = asApiBody(CreateContactGroupBodySchema, groupBody(form));
      const group = await createContactGroup(db, accountId, input, now);
      return c.redirect(`/dashboard/contacts/${group.id}?done=created`, 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderNewGroup(c, form, problem, status);
    }
  })
  .openapi(groupRoute, async (c) => {
    const { done, added, skipped, limit, offset } = c.req.valid("query");
    const imported = done === "imported" ? { added: added ?? 0, skipped: skipped ?? 0 } : undefined;
    return renderGroup(c, c.req.valid("param").id, { done, imported }, { limit, offset });
  })
  .openapi(saveGroupRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    const { db, accountId, now } = c.var.ctx;
    try {
      await patchContactGroup(
        db,
        accountId,
        id,
        asApiBody(UpdateContactGroupBodySchema, groupBody(form)),
        now,
      );
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderGroup(c, id, { problem, groupDraft: form }, undefined, status);
    }
    return c.redirect(`/dashboard/contacts/${id}?done=saved`, 303);
  })
  .openapi(deleteGroupRoute, async (c) => {
    await removeContactGroup(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("param").id);
    return c.redirect("/dashboard/contacts?done=deleted", 303);
  });

mount(contactsRouter, "/", membersRouter);

function renderNewGroup(
  c: Context<AppEnv>,
  draft?: GroupDraft,
  problem?: Problem,
  status: 200 | 400 | 409 = 200,
) {
  return renderPage(
    c,
    { title: "New contact group", nav: "Contacts", status },
    <NewGroupPage csrfToken={c.var.csrfToken} draft={draft} problem={problem} />,
  );
}
