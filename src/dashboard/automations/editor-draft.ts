import { AUTOMATION_TRIGGERS, type AutomationTriggerType } from "../../db/schema";
import { STEP_TYPES, type Step, type StepType } from "../../features/automations/steps";

/**
 * The automation editor's state as the form carries it: strings only, one fieldset per step. A
 * step's `id` rides in a hidden field, so saving keeps the ids of the steps kept (enrolments know
 * which step they are at by it); a step added in the editor has none until the service names it.
 */

/** Every field a step's fieldset may carry; a step uses those of its type. */
export const STEP_FIELDS = [
  "id",
  "from",
  "reply_to",
  "subject",
  "html",
  "text",
  "template_id",
  "template_version_id",
  "template_variables",
  "duration",
  "url",
  "method",
  "headers",
  "payload",
  "contact_group_id",
  "metadata",
] as const;
export type StepField = (typeof STEP_FIELDS)[number];

export type StepDraft = { type: StepType } & Record<StepField, string>;

export interface EditorDraft {
  name: string;
  trigger_type: AutomationTriggerType;
  /** The contact group of a `group_joined` trigger. */
  trigger_group_id: string;
  /** The inbox of a `ticket_resolved` trigger. */
  trigger_inbox_id: string;
  allow_reentry: boolean;
  steps: StepDraft[];
}

/** The trigger as the API writes and answers it. */
export type TriggerShape = { type: AutomationTriggerType; contact_group_id?: string; inbox_id?: string };

/** What the editor shows for an automation (a stored one, or the empty new one). */
export interface AutomationShape {
  name: string;
  trigger: TriggerShape;
  allow_reentry: boolean;
  steps: Step[];
}

/** The form field of step `index`'s `field`: `steps.2.url`. */
export const stepField = (index: number, field: StepField | "type") => `steps.${index}.${field}`;

export function emptyStep(type: StepType): StepDraft {
  const blank = Object.fromEntries(STEP_FIELDS.map((field) => [field, ""])) as Record<StepField, string>;
  return { ...blank, type, method: "POST" };
}

export const emptyDraft = (): EditorDraft => ({
  name: "",
  trigger_type: "api",
  trigger_group_id: "",
  trigger_inbox_id: "",
  allow_reentry: false,
  steps: [],
});

const json = (value: unknown) => (value === undefined ? "" : JSON.stringify(value, null, 2));

/** A stored step in the editor's fields: headers one per line, JSON pretty-printed. */
function stepDraftOf(step: Step): StepDraft {
  const draft = emptyStep(step.type);
  draft.id = step.id;
  switch (step.type) {
    case "send_email":
      return {
        ...draft,
        from: step.from,
        reply_to: step.reply_to ?? "",
        subject: step.subject ?? "",
        html: step.html ?? "",
        text: step.text ?? "",
        template_id: step.template?.id ?? "",
        template_version_id: step.template?.version_id ?? "",
        template_variables: json(step.template?.variables),
      };
    case "wait":
      return { ...draft, duration: step.duration };
    case "webhook": {
      const headers = Object.entries(step.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
      return {
        ...draft,
        url: step.url,
        method: step.method,
        headers: headers.join("\n"),
        payload: json(step.payload),
      };
    }
    case "add_to_group":
    case "remove_from_group":
      return { ...draft, contact_group_id: step.contact_group_id };
    case "update_customer":
      return { ...draft, metadata: json(step.metadata) };
  }
}

export function draftOf(automation: AutomationShape): EditorDraft {
  const { trigger } = automation;
  return {
    name: automation.name,
    trigger_type: trigger.type,
    trigger_group_id: trigger.contact_group_id ?? "",
    trigger_inbox_id: trigger.inbox_id ?? "",
    allow_reentry: automation.allow_reentry,
    steps: automation.steps.map(stepDraftOf),
  };
}

/** Reads the posted form back into a draft; unknown step types and stray fields are dropped. */
export function readDraft(form: Record<string, string | string[]>): EditorDraft {
  const value = (name: string) => {
    const v = form[name];
    return typeof v === "string" ? v : "";
  };
  const indices = Object.keys(form)
    .flatMap((key) => {
      const match = /^steps\.(\d{1,3})\.type$/.exec(key);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);
  const steps = indices.flatMap((index) => {
    const type = value(stepField(index, "type"));
    if (!(STEP_TYPES as readonly string[]).includes(type)) return [];
    const step = emptyStep(type as StepType);
    for (const field of STEP_FIELDS) step[field] = value(stepField(index, field));
    step.method ||= "POST";
    return [step];
  });
  const trigger = value("trigger_type");
  return {
    name: value("name"),
    trigger_type: (AUTOMATION_TRIGGERS as readonly string[]).includes(trigger)
      ? (trigger as AutomationTriggerType)
      : "api",
    trigger_group_id: value("trigger_group_id"),
    trigger_inbox_id: value("trigger_inbox_id"),
    allow_reentry: value("allow_reentry") !== "",
    steps,
  };
}
