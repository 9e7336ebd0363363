import { PageHeader } from "../../ui/components";
import type { GroupChoice } from "../campaigns/campaign-editor";
import type { InboxChoice } from "../inbox-choices";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import type { TemplateChoice } from "../template-choices";
import { AutomationEditor } from "./automation-editor";
import type { EditorDraft } from "./editor-draft";

export function NewAutomationPage(props: {
  draft: EditorDraft;
  groups: GroupChoice[];
  inboxes: InboxChoice[];
  templates: TemplateChoice[];
  csrfToken: string;
  problem?: Problem | undefined;
}) {
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/automations">Automations</a>
      </p>
      <PageHeader title="New automation" />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <AutomationEditor
          action="/dashboard/automations"
          draft={props.draft}
          groups={props.groups}
          inboxes={props.inboxes}
          templates={props.templates}
          csrfToken={props.csrfToken}
          saveLabel="Create automation"
        />
      </section>
    </>
  );
}
