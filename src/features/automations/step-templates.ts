import { validationError } from "../../lib/router";
import { resolveTemplate, sendableTemplate } from "../campaigns/campaign-template";
import type { AutomationContext } from "./automation-context";
import type { Step } from "./steps";

/**
 * The templates of `send_email` steps, checked when the steps are written: 404 for a template or
 * version not of this workspace, 422 naming each static value not declared or of the wrong type,
 * 400 for a step with no subject of its own whose template has none. An alias is stored as the
 * template's id, so renaming it later changes no automation.
 */
export async function checkStepTemplates(ctx: AutomationContext, steps: Step[]): Promise<Step[]> {
  const checked: Step[] = [];
  for (const [i, step] of steps.entries()) {
    if (step.type !== "send_email" || !step.template) {
      checked.push(step);
      continue;
    }
    const { template, version } = await resolveTemplate(ctx, step.template, `body.steps.${i}.template`);
    if (!step.subject && !version.subject)
      throw validationError(
        [{ path: ["steps", i, "subject"], message: "required: the template has no subject" }],
        "json",
      );
    checked.push({ ...step, template: { ...step.template, id: template.id } });
  }
  return checked;
}

/** On activation: every step's template has a published version (or names one): 404, 422. */
export async function checkStepTemplatesSendable(ctx: AutomationContext, steps: Step[]) {
  for (const [i, step] of steps.entries()) {
    if (step.type !== "send_email" || !step.template) continue;
    const t = step.template;
    await sendableTemplate(ctx, t.id, t.version_id ?? null, t.variables ?? {}, `steps.${i}.template`);
  }
}
