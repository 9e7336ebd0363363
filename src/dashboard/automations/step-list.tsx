import type { Step } from "../../features/automations/steps";
import { Empty } from "../../ui/components";
import type { GroupChoice } from "../campaigns/campaign-editor";
import { STEP_LABELS } from "./step-fields";

/** One line saying what a step does. */
function summary(step: Step, groups: GroupChoice[]): string {
  const group = (id: string) => groups.find((g) => g.id === id)?.name ?? id;
  switch (step.type) {
    case "send_email":
      return `“${step.subject}” from ${step.from}`;
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
export function StepList(props: { steps: Step[]; groups: GroupChoice[] }) {
  if (props.steps.length === 0) return <Empty text="No steps." />;
  return (
    <ol class="steps">
      {props.steps.map((step) => (
        <li>
          <strong>{STEP_LABELS[step.type]}</strong> {summary(step, props.groups)}{" "}
          <code class="muted">{step.id}</code>
        </li>
      ))}
    </ol>
  );
}
