import type { VariableValues } from "./templates.schemas";
import { type TemplateContext, templateOf } from "./templates.service";
import {
  assertMarkup,
  checkValues,
  renderVersion,
  valueProblems,
  variablesOf,
  variablesRefused,
  viewOf,
} from "./variables";

/** How a variable without a value shows in a preview: as it is written, for the eye to find. */
const placeholder = (key: string) => `{{${key}}}`;

/**
 * POST /v1/templates/{id}/render: any version, draft or published, filled in with the values given
 * (then fallbacks). What a send would refuse is reported, not hidden: markup that does not parse
 * (422 with line and column) and a value of the wrong type (422) are refused; the answer lists the
 * variables without a value (`missing`, declared without a fallback or used without being declared;
 * left as `{{KEY}}` in the preview) and the keys given that the template does not declare (`unused`).
 */
export async function renderTemplate(
  ctx: TemplateContext,
  idOrAlias: string,
  versionId: string | undefined,
  given: VariableValues = {},
) {
  const { template, version } = await templateOf(ctx, idOrAlias, versionId ? { id: versionId } : "current");
  const markup = assertMarkup(template.id, version, false);
  const declared = variablesOf(version);
  const check = checkValues(declared, given);
  if (check.mistyped.length > 0) {
    throw variablesRefused(valueProblems({ ...check, undeclared: [], missing: [] }, "body.variables"));
  }
  const declaredKeys = new Set(declared.map((v) => v.key));
  const usedOnly = new Set(markup.uses.map((use) => use.key).filter((key) => !declaredKeys.has(key)));
  return {
    object: "rendered_template" as const,
    template_id: template.id,
    version_id: version.id,
    ...renderVersion(version, viewOf(declared, given, markup.uses, placeholder)),
    missing: [...check.missing, ...usedOnly],
    unused: check.undeclared,
  };
}
