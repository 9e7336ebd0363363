import { joinVariables, renderInLayout } from "./layouts";
import { CONTENT_SLOT, newRenderer } from "./markup";
import { publishedLayout } from "./template-writes";
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
 * A version that names a layout is put in the layout's published version, as a send would be (one
 * read more); a layout itself shows its slot as written, `{{{@content}}}`.
 */
export async function renderTemplate(
  ctx: TemplateContext,
  idOrAlias: string,
  versionId: string | undefined,
  given: VariableValues = {},
) {
  const { template, version } = await templateOf(ctx, idOrAlias, versionId ? { id: versionId } : "current");
  const isLayout = template.type === "layout";
  const markup = assertMarkup(template.id, version, false, isLayout);
  const layout = version.layoutId ? await publishedLayout(ctx, template.id, version.layoutId) : null;
  const layoutMarkup = layout ? assertMarkup(layout.templateId, layout, false, true) : null;
  const declared = joinVariables(variablesOf(version), layout ? variablesOf(layout) : null);
  const check = checkValues(declared, given);
  if (check.mistyped.length > 0) {
    throw variablesRefused(valueProblems({ ...check, undeclared: [], missing: [] }, "body.variables"));
  }
  const uses = [...markup.uses, ...(layoutMarkup?.uses ?? [])];
  const declaredKeys = new Set(declared.map((v) => v.key));
  const usedOnly = new Set(uses.map((use) => use.key).filter((key) => !declaredKeys.has(key)));
  const view = viewOf(declared, given, uses, placeholder);
  if (isLayout) view[CONTENT_SLOT] = `{{{${CONTENT_SLOT}}}}`;
  const renderer = newRenderer();
  return {
    object: "rendered_template" as const,
    template_id: template.id,
    version_id: version.id,
    layout: layout ? { id: layout.templateId, version_id: layout.id } : null,
    ...renderInLayout(renderVersion(version, view, renderer), layout, view, renderer),
    missing: [...check.missing, ...usedOnly],
    unused: check.undeclared,
  };
}
