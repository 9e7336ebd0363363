import type { Step } from "../../features/automations/steps";
import { Empty } from "../../ui/components";
import type { GroupChoice } from "../campaigns/campaign-editor";
import type { TemplateChoice } from "../template-choices";
import { STEP_LABELS } from "./step-fields";

type Choices = { groups: GroupChoice[]; templates: TemplateChoice[] };

/** A send_email step's subject and body: its own, or the template it sends. */
function emailSummary(step: Extract<Step, { type: "send_email" }>, templates: TemplateChoice[]) {
  const subject = step.subject ? `“${step.subject}” ` : "";
  if (!step.template) return `${subject}from ${step.from}`;
  const name = templates.find((t) => t.id === step.template?.id)?.name ?? step.template.id;
  return `${subject}template “${name}” from ${step.from}`;
}

/** One line saying what a step does. */
function summary(step: Step, { groups, templates }: Choices): string {
  const group = (id: string) => groups.find((g) => g.id === id)?.name ?? id;
  switch (step.type) {
    case "send_email":
      return emailSummary(step, templates);
    case "wait":
      return step.duration;
    case "webhook":
      return `${step.method} ${step.url}`;
    case "add_to_group":
    case "remove_from_group":
      return group(step.contact_group_id);
    case "update_customer":
      return `metadata: ${Object.keys(step.metadata).join(", ") || "nothing"}`;
  }
}

/** The steps read-only (for agents), in order, with their ids. */
export function StepList(props: { steps: Step[] } & Choices) {
  if (props.steps.length === 0) return <Empty text="No steps." />;
  return (
    <ol class="steps">
      {props.steps.map((step) => (
        <li>
          <strong>{STEP_LABELS[step.type]}</strong> {summary(step, props)}{" "}
          <code class="muted">{step.id}</code>
        </li>
      ))}
    </ol>
  );
}
