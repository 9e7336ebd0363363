import { ActionButton, CsrfField, Notice, PageHeader, Time } from "../../ui/components";
import type { GroupChoice } from "../campaigns/campaign-editor";
import type { InboxChoice } from "../inbox-choices";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import type { TemplateChoice } from "../template-choices";
import { AutomationEditor, TRIGGER_LABELS } from "./automation-editor";
import { StatusBadge } from "./automation-list.page";
import type { AutomationView } from "./automation-reads";
import { draftOf, type EditorDraft } from "./editor-draft";
import { StepList } from "./step-list";

const DONE: Record<string, string> = {
  created: "Automation created as a draft.",
  saved: "Saved. Active enrolments follow the new steps from the next one they reach.",
  activated: "Activated: triggers now enrol contacts.",
  paused: "Paused: no new enrolments; enrolments under way wait.",
};

export interface AutomationPageProps {
  automation: AutomationView;
  groups: GroupChoice[];
  inboxes: InboxChoice[];
  templates: TemplateChoice[];
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
  draft?: EditorDraft | undefined;
}

function triggerTarget(props: AutomationPageProps): string | null {
  const { trigger } = props.automation;
  if (trigger.contact_group_id) {
    return props.groups.find((g) => g.id === trigger.contact_group_id)?.name ?? trigger.contact_group_id;
  }
  if (trigger.inbox_id) return props.inboxes.find((i) => i.id === trigger.inbox_id)?.name ?? trigger.inbox_id;
  return null;
}

/**
 * The secret is fetched by a POST, as inbox webhook secrets are: htmx swaps the answer (the secret
 * alone) in place of the button; without script the browser opens a page showing it.
 */
function ShowSecret(props: { id: string; csrfToken: string }) {
  const action = `/dashboard/automations/${props.id}/secret`;
  return (
    <form method="post" action={action} class="inline" hx-post={action} hx-swap="outerHTML">
      <CsrfField token={props.csrfToken} />
      <button type="submit" class="secondary">
        Show secret
      </button>
    </form>
  );
}

function Actions(props: AutomationPageProps) {
  const { automation, csrfToken } = props;
  const base = `/dashboard/automations/${automation.id}`;
  return (
    <div class="actions automation-actions">
      {automation.status !== "active" ? (
        <ActionButton action={`${base}/activate`} label="Activate" csrfToken={csrfToken} />
      ) : (
        <ActionButton action={`${base}/pause`} label="Pause" csrfToken={csrfToken} />
      )}
      {automation.status !== "active" ? (
        <ActionButton
          action={`${base}/delete`}
          label="Delete"
          csrfToken={csrfToken}
          confirm={`Delete the automation ${automation.name} and its enrolments' history?`}
          danger
        />
      ) : null}
    </div>
  );
}

export function AutomationPage(props: AutomationPageProps) {
  const { automation } = props;
  const target = triggerTarget(props);
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/automations">Automations</a>
      </p>
      <PageHeader title={automation.name}>
        <a class="button secondary" href={`/dashboard/automations/${automation.id}/enrollments`}>
          Enrolments
        </a>
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={automation.status} />
          </dd>
          <dt>Trigger</dt>
          <dd>
            {TRIGGER_LABELS[automation.trigger.type]}
            {target ? `: ${target}` : ""}
          </dd>
          <dt>Re-entry</dt>
          <dd>{automation.allow_reentry ? "allowed" : "not while active"}</dd>
          <dt>Steps</dt>
          <dd>{automation.steps.length}</dd>
          <dt>Updated</dt>
          <dd>
            <Time at={automation.updated_at} />
          </dd>
          {props.canManage ? (
            <>
              <dt>Webhook secret</dt>
              <dd>
                <ShowSecret id={automation.id} csrfToken={props.csrfToken} />
              </dd>
            </>
          ) : null}
        </dl>
        {props.canManage ? <Actions {...props} /> : null}
      </section>
      <section class="panel">
        <h2>{props.canManage ? "Edit" : "Steps"}</h2>
        {props.canManage ? (
          <AutomationEditor
            action={`/dashboard/automations/${automation.id}`}
            draft={props.draft ?? draftOf(automation)}
            groups={props.groups}
            inboxes={props.inboxes}
            templates={props.templates}
            csrfToken={props.csrfToken}
            saveLabel="Save"
          />
        ) : (
          <StepList steps={automation.steps} groups={props.groups} templates={props.templates} />
        )}
      </section>
    </>
  );
}
