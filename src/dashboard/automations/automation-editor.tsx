import { AUTOMATION_TRIGGERS, type AutomationTriggerType } from "../../db/schema";
import { STEP_TYPES } from "../../features/automations/steps";
import { CsrfField } from "../../ui/components";
import type { GroupChoice } from "../campaigns/campaign-editor";
import type { InboxChoice } from "../inbox-choices";
import type { TemplateChoice } from "../template-choices";
import type { EditorDraft } from "./editor-draft";
import { GroupSelect, STEP_LABELS, StepFieldset } from "./step-fields";

export const TRIGGER_LABELS: Record<AutomationTriggerType, string> = {
  api: "API call (POST /v1/automations/trigger)",
  group_joined: "A contact joins a group",
  ticket_resolved: "A ticket of an inbox is resolved",
};

export interface EditorProps {
  action: string;
  draft: EditorDraft;
  groups: GroupChoice[];
  inboxes: InboxChoice[];
  templates: TemplateChoice[];
  csrfToken: string;
  saveLabel: string;
}

function TriggerFields(props: EditorProps) {
  const { draft } = props;
  return (
    <fieldset class="trigger">
      <legend>Trigger</legend>
      <label>
        Trigger
        <select name="trigger_type">
          {AUTOMATION_TRIGGERS.map((type) => (
            <option value={type} selected={type === draft.trigger_type}>
              {TRIGGER_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <div class="trigger-fields for-group_joined">
        <GroupSelect
          name="trigger_group_id"
          label="Group joined"
          value={draft.trigger_group_id}
          groups={props.groups}
        />
      </div>
      <div class="trigger-fields for-ticket_resolved">
        <label>
          Inbox
          <select name="trigger_inbox_id">
            <option value="">Choose an inbox</option>
            {props.inboxes.map((inbox) => (
              <option value={inbox.id} selected={inbox.id === draft.trigger_inbox_id}>
                {inbox.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label class="check">
        <input type="checkbox" name="allow_reentry" value="on" checked={draft.allow_reentry} />
        Allow re-entry (a customer may be enrolled again while still active)
      </label>
    </fieldset>
  );
}

/**
 * The whole editor, one form. Its buttons are all named `op`: the step buttons post the form back
 * and get it re-rendered with the change (nothing saved); Save sends it through the API's rules.
 * The first button in the form is a hidden Save: Enter in a field presses the first button, which
 * must not be a step's Move up.
 */
export function AutomationEditor(props: EditorProps) {
  const { draft } = props;
  return (
    <form method="post" action={props.action} class="stack automation-editor">
      <button type="submit" name="op" value="save" hidden>
        {props.saveLabel}
      </button>
      <CsrfField token={props.csrfToken} />
      <label>
        Name
        <input name="name" required maxlength={200} value={draft.name} />
      </label>
      <TriggerFields {...props} />
      <h3>Steps</h3>
      {draft.steps.length === 0 ? <p class="muted">No steps yet: add one below.</p> : null}
      {draft.steps.map((step, index) => (
        <StepFieldset
          index={index}
          step={step}
          groups={props.groups}
          templates={props.templates}
          count={draft.steps.length}
        />
      ))}
      <fieldset class="add-step">
        <legend>Add a step</legend>
        <div class="actions">
          {STEP_TYPES.map((type) => (
            <button type="submit" name="op" value={`add:${type}`} class="secondary">
              {`+ ${STEP_LABELS[type]}`}
            </button>
          ))}
        </div>
      </fieldset>
      <div class="actions">
        <button type="submit" name="op" value="save">
          {props.saveLabel}
        </button>
      </div>
    </form>
  );
}
