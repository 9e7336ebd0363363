import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { listContactGroups } from "../../features/contact-groups/contact-groups.service";
import { inboxChoices } from "../inbox-choices";
import type { Problem } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import { hasRole } from "../roles";
import { AutomationPage } from "./automation.page";
import { automationOf } from "./automation-reads";
import type { EditorDraft } from "./editor-draft";
import { EnrollmentPage } from "./enrollment.page";
import { enrollmentOf } from "./enrollment-reads";
import { NewAutomationPage } from "./new-automation.page";

/** The pages the read routes and the editor's actions both render. */

/** What the editor's selects offer: the first 100 groups and inboxes, newest first. */
export async function editorChoices(c: Context<AppEnv>) {
  const { db, accountId } = c.var.ctx;
  const [groups, inboxes] = await Promise.all([
    listContactGroups(db, accountId, 100, 0),
    inboxChoices(db, accountId),
  ]);
  return { groups: groups.groups, inboxes };
}

export async function renderAutomation(
  c: Context<AppEnv>,
  id: string,
  extras: { done?: string | undefined; problem?: Problem | undefined; draft?: EditorDraft },
  status: 200 | 400 | 409 = 200,
) {
  const { db, accountId } = c.var.ctx;
  const [automation, choices] = await Promise.all([automationOf(db, accountId, id), editorChoices(c)]);
  return renderPage(
    c,
    { title: automation.name, nav: "Automations", status },
    <AutomationPage
      automation={automation}
      {...choices}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      {...extras}
    />,
  );
}

export async function renderNew(
  c: Context<AppEnv>,
  draft: EditorDraft,
  problem?: Problem,
  status: 200 | 400 | 409 = 200,
) {
  return renderPage(
    c,
    { title: "New automation", nav: "Automations", status },
    <NewAutomationPage
      draft={draft}
      {...(await editorChoices(c))}
      csrfToken={c.var.csrfToken}
      problem={problem}
    />,
  );
}

export async function renderEnrollment(
  c: Context<AppEnv>,
  id: string,
  extras: { done?: string | undefined; problem?: Problem | undefined },
  status: 200 | 400 | 409 = 200,
) {
  const { db, accountId } = c.var.ctx;
  return renderPage(
    c,
    { title: "Enrolment", nav: "Automations", status },
    <EnrollmentPage
      enrollment={await enrollmentOf(db, accountId, id)}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      {...extras}
    />,
  );
}
