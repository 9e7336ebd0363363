import type { MarkupProblem } from "./markup";
import type { VariableValues } from "./templates.schemas";
import { checkValues, markupOf, renderVersion, type StoredVariable, viewOf } from "./variables";

/** What the dashboard's editor holds: a version's content, saved or not. */
export interface DraftContent {
  subject: string | null;
  html: string;
  text: string | null;
  variables: StoredVariable[];
}

/** How a variable without a value shows in a preview: as it is written, for the eye to find. */
const placeholder = (key: string) => `{{${key}}}`;

/**
 * The render check of POST /v1/templates/{id}/render applied to content not saved yet (the
 * dashboard's editor, as it is typed), with the same parser and renderer. Nothing is thrown: what
 * a publish or a send would refuse is listed for the page to show beside the preview. `problems`
 * (markup that does not parse, tags other than variables, variables used but not declared) carry
 * their field, line and column; while the markup does not parse there is nothing to render.
 */
export function previewDraft(content: DraftContent, given: VariableValues = {}) {
  const version = { ...content, variables: JSON.stringify(content.variables) };
  const markup = markupOf(version);
  const check = checkValues(content.variables, given);
  const declaredKeys = new Set(content.variables.map((v) => v.key));
  const usedOnly = new Set(markup.uses.map((use) => use.key).filter((key) => !declaredKeys.has(key)));
  const problems: MarkupProblem[] = [...markup.problems, ...markup.undeclared];
  return {
    rendered:
      markup.problems.length === 0
        ? renderVersion(version, viewOf(content.variables, given, markup.uses, placeholder))
        : null,
    problems,
    missing: [...check.missing, ...usedOnly],
    unused: check.undeclared,
    mistyped: check.mistyped,
  };
}

export type DraftPreview = ReturnType<typeof previewDraft>;
