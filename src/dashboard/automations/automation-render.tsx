import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import { groupChoices } from "../../features/contact-groups/contact-groups.service";
import { inboxChoices } from "../inbox-choices";
import type { Problem } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import { templateChoices } from "../template-choices";
import { AutomationPage } from "./automation.page";
import { automationOf } from "./automation-reads";
import type { AutomationShape, EditorDraft } from "./editor-draft";
import { EnrollmentPage } from "./enrollment.page";
import { enrollmentOf } from "./enrollment-reads";
import { NewAutomationPage } from "./new-automation.page";

/** The pages the read routes and the editor's actions both render. */

/** How many groups the selects offer besides those the automation already names. */
const GROUPS_OFFERED = 100;

/** What an automation or an editor draft names: the groups of its trigger and steps, its steps' templates. */
function namedIds(automation?: AutomationShape, draft?: EditorDraft) {
  const steps = automation?.steps ?? [];
  const drafts = draft?.steps ?? [];
  const groupIds = [
    automation?.trigger.contact_group_id ?? "",
    ...steps.flatMap((step) => ("contact_group_id" in step ? [step.contact_group_id] : [])),
    draft?.trigger_group_id ?? "",
    ...drafts.map((step) => step.contact_group_id),
  ];
  const templateIds = [
    ...steps.flatMap((step) => (step.type === "send_email" && step.template ? [step.template.id] : [])),
    ...drafts.map((step) => step.template_id),
  ];
  const unique = (ids: string[]) => [...new Set(ids.filter(Boolean))];
  return { groupIds: unique(groupIds), templateIds: unique(templateIds) };
}

/**
 * What the editor's selects offer: every group and template the automation (or the draft) names,
 * whatever its age, then the newest 100 others; and the inboxes. A select that did not list a
 * step's older group would show "Choose a group" and lose it on the next save (the campaign
 * editor's defect).
 */
export async function editorChoices(c: Context<AppEnv>, named: ReturnType<typeof namedIds>) {
  const { db, accountId } = c.var.ctx;
  const [groups, inboxes, templates] = await Promise.all([
    groupChoices(db, accountId, named.groupIds, undefined, GROUPS_OFFERED),
    inboxChoices(db, accountId),
    templateChoices(db, accountId, named.templateIds),
  ]);
  return { groups: [...groups.chosen, ...groups.others], inboxes, templates };
}

export async function renderAutomation(
  c: Context<AppEnv>,
  id: string,
  extras: { done?: string | undefined; problem?: Problem | undefined; draft?: EditorDraft },
  status: 200 | 400 | 409 = 200,
) {
  const { db, accountId } = c.var.ctx;
  const automation = await automationOf(db, accountId, id);
  const choices = await editorChoices(c, namedIds(automation, extras.draft));
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
      {...(await editorChoices(c, namedIds(undefined, draft)))}
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
