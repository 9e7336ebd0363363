import { STEP_TYPES, type StepType } from "../../features/automations/steps";
import type { GroupChoice } from "../campaigns/campaign-editor";
import type { TemplateChoice } from "../template-choices";
import { type StepDraft, type StepField, stepField } from "./editor-draft";

/** How the editor names each step type. */
export const STEP_LABELS: Record<StepType, string> = {
  send_email: "Send email",
  wait: "Wait",
  webhook: "Webhook",
  add_to_group: "Add to group",
  remove_from_group: "Remove from group",
  update_customer: "Update customer",
};

const VARIABLES = "Variables as in campaigns: {{first_name}}, {{name}}, {{email}}, {{name|fallback}}.";

const TEMPLATE_VALUES =
  "A JSON object of values for every customer, such as {\"plan\": \"Pro\"}. The others come from the trigger's data, then the customer's own fields (email, name, first name, the unsubscribe link), then their metadata, then the variable's fallback; a customer left without one is skipped, with the reason in the enrolment's history.";

type FieldsProps = { index: number; step: StepDraft; groups: GroupChoice[]; templates: TemplateChoice[] };

function Input(
  props: FieldsProps & { field: StepField; label: string; placeholder?: string; hint?: string },
) {
  return (
    <label>
      {props.label}
      <input
        name={stepField(props.index, props.field)}
        value={props.step[props.field]}
        placeholder={props.placeholder}
      />
      {props.hint ? <small>{props.hint}</small> : null}
    </label>
  );
}

function TextArea(props: FieldsProps & { field: StepField; label: string; rows: number; hint?: string }) {
  return (
    <label>
      {props.label}
      <textarea name={stepField(props.index, props.field)} rows={props.rows}>
        {props.step[props.field]}
      </textarea>
      {props.hint ? <small>{props.hint}</small> : null}
    </label>
  );
}

export function GroupSelect(props: { name: string; label: string; value: string; groups: GroupChoice[] }) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">Choose a group</option>
        {props.groups.map((group) => (
          <option value={group.id} selected={group.id === props.value}>
            {group.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The template a send_email step sends instead of its own HTML; "none" keeps the HTML below. */
function TemplateSelect(props: FieldsProps) {
  const chosen = props.step.template_id;
  const known = props.templates.some((t) => t.id === chosen);
  return (
    <label>
      Template
      <select name={stepField(props.index, "template_id")}>
        <option value="">None: the HTML and text below</option>
        {props.templates.map((t) => (
          <option value={t.id} selected={t.id === chosen}>
            {t.published ? t.name : `${t.name} (not published yet)`}
          </option>
        ))}
        {chosen && !known ? (
          <option value={chosen} selected>
            {chosen}
          </option>
        ) : null}
      </select>
      <small>
        A stored template sends its published version when the step runs; leave HTML and text empty.
      </small>
    </label>
  );
}

/**
 * Every type's fields are rendered; app.css shows those of the type selected (`:has`), so changing
 * the type needs no script. The server reads only the fields of the type posted.
 */
function TypeFields(props: FieldsProps) {
  const f = props;
  return (
    <>
      <div class="step-fields for-send_email">
        <Input {...f} field="from" label="From" placeholder="Acme <hello@acme.com>" />
        <Input {...f} field="reply_to" label="Reply-To (optional)" />
        <Input
          {...f}
          field="subject"
          label="Subject"
          hint="With a template: empty sends the template's subject."
        />
        <TemplateSelect {...f} />
        <TextArea {...f} field="template_variables" label="Template values" rows={2} hint={TEMPLATE_VALUES} />
        <Input
          {...f}
          field="template_version_id"
          label="Template version (optional)"
          hint="A published version's id; empty: the version published when the step runs."
        />
        <TextArea {...f} field="html" label="HTML" rows={6} hint={VARIABLES} />
        <TextArea {...f} field="text" label="Text" rows={3} />
      </div>
      <div class="step-fields for-wait">
        <Input
          {...f}
          field="duration"
          label="Duration"
          placeholder="3d"
          hint="s, m, h, d or w; at most 365 days."
        />
      </div>
      <div class="step-fields for-webhook">
        <Input {...f} field="url" label="URL" placeholder="https://example.com/hook" />
        <label>
          Method
          <select name={stepField(f.index, "method")}>
            {["POST", "PUT", "PATCH"].map((method) => (
              <option selected={method === f.step.method}>{method}</option>
            ))}
          </select>
        </label>
        <TextArea {...f} field="headers" label="Headers" rows={2} hint="One per line: Name: value" />
        <TextArea
          {...f}
          field="payload"
          label="Payload"
          rows={4}
          hint="A JSON object; empty sends the default body."
        />
      </div>
      <div class="step-fields for-add_to_group for-remove_from_group">
        <GroupSelect
          name={stepField(f.index, "contact_group_id")}
          label="Contact group"
          value={f.step.contact_group_id}
          groups={f.groups}
        />
      </div>
      <div class="step-fields for-update_customer">
        <TextArea
          {...f}
          field="metadata"
          label="Metadata"
          rows={3}
          hint="A JSON object merged into the customer's metadata; null removes a key."
        />
      </div>
    </>
  );
}

/** One step of the editor: its kept id, its type, its fields and the buttons that move it. */
export function StepFieldset(props: FieldsProps & { count: number }) {
  const { index, step } = props;
  const button = (op: string, label: string, disabled = false) => (
    <button type="submit" name="op" value={`${op}:${index}`} class="secondary" disabled={disabled}>
      {label}
    </button>
  );
  return (
    <fieldset class="step">
      <legend>{`Step ${index + 1}`}</legend>
      <input type="hidden" name={stepField(index, "id")} value={step.id} />
      <label>
        Type
        <select name={stepField(index, "type")} class="step-type">
          {STEP_TYPES.map((type) => (
            <option value={type} selected={type === step.type}>
              {STEP_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <TypeFields {...props} />
      <div class="actions">
        {button("up", "Move up", index === 0)}
        {button("down", "Move down", index === props.count - 1)}
        {button("remove", "Remove step")}
      </div>
    </fieldset>
  );
}
