import { AppError } from "../../lib/errors";
import {
  type MarkupProblem,
  newRenderer,
  parseField,
  renderField,
  slotProblems,
  type VariableUse,
} from "./markup";
import type { VersionRow } from "./templates.repo";
import type { VariableValues } from "./templates.schemas";

export interface StoredVariable {
  key: string;
  type: "string" | "number";
  fallback_value: string | number | null;
}

export const variablesOf = (version: Pick<VersionRow, "variables">) =>
  JSON.parse(version.variables) as StoredVariable[];

type Content = Pick<VersionRow, "subject" | "html" | "text" | "variables">;

/**
 * A version's markup: the variables it uses, what does not parse or is a tag other than a
 * variable, or a content slot out of place (`problems`), and variables used but not declared
 * (`undeclared`); each problem with its field, line and column.
 */
export function markupOf(version: Content, isLayout = false) {
  const fields = [
    ["subject", version.subject],
    ["html", version.html],
    ["text", version.text],
  ] as const;
  const parsed = fields.flatMap(([field, source]) =>
    source === null ? [] : [{ field, ...parseField(field, source) }],
  );
  const uses = parsed.flatMap((p) => p.uses);
  const declared = new Set(variablesOf(version).map((v) => v.key));
  const undeclared: MarkupProblem[] = uses
    .filter((use) => !declared.has(use.key))
    .map(({ key, ...where }) => ({ ...where, message: `${key} is used but not declared in variables` }));
  const problems = parsed.flatMap((p) => [
    ...p.problems,
    ...(p.parsed ? slotProblems(p.field, p.slots, isLayout) : []),
  ]);
  return { uses, problems, undeclared };
}

/**
 * 422 naming each markup problem with its line and column; with `undeclared`, variables used but
 * not declared too (a published version has none, so a send can always be checked in full).
 */
export function assertMarkup(templateId: string, version: Content, undeclared: boolean, isLayout = false) {
  const markup = markupOf(version, isLayout);
  const problems = [...markup.problems, ...(undeclared ? markup.undeclared : [])];
  if (problems.length === 0) return markup;
  const summary = problems.map((p) => `${p.field} ${p.line}:${p.column} ${p.message}`).join("; ");
  throw new AppError(
    422,
    "template_invalid",
    "Template markup is invalid",
    `Template ${templateId}: ${summary}`,
    {
      errors: problems,
    },
  );
}

export interface ValueCheck {
  undeclared: string[];
  missing: string[];
  mistyped: Array<{ key: string; expected: "string" | "number" }>;
}

/** Compares the values a caller gave with a version's declared variables. */
export function checkValues(declared: StoredVariable[], given: VariableValues = {}): ValueCheck {
  const byKey = new Map(declared.map((v) => [v.key, v]));
  return {
    undeclared: Object.keys(given).filter((key) => !byKey.has(key)),
    missing: declared
      .filter((v) => given[v.key] === undefined && (v.fallback_value ?? null) === null)
      .map((v) => v.key),
    mistyped: declared
      .filter((v) => given[v.key] !== undefined && typeof given[v.key] !== v.type)
      .map((v) => ({ key: v.key, expected: v.type })),
  };
}

/** The refusal of a send's (or a preview's) values: `details` names each, under `path`. */
export function valueProblems(check: ValueCheck, path: string) {
  return [
    ...check.undeclared.map((key) => ({
      path: `${path}.${key}`,
      message: "is not a variable of the template",
    })),
    ...check.missing.map((key) => ({
      path: `${path}.${key}`,
      message: "is required: it has no fallback_value",
    })),
    ...check.mistyped.map(({ key, expected }) => ({
      path: `${path}.${key}`,
      message: `must be a ${expected}`,
    })),
  ];
}

export function variablesRefused(details: Array<{ path: string; message: string }>) {
  return new AppError(
    422,
    "template_variables_invalid",
    "Template variables are invalid",
    `${details.map((d) => `${d.path} ${d.message}`).join("; ")}.`,
    { details },
  );
}

/** The values a render uses: given ones, then fallbacks; `filler` for any other key the markup uses. */
export function viewOf(
  declared: StoredVariable[],
  given: VariableValues,
  uses: VariableUse[],
  filler: (key: string) => string,
): Record<string, string | number> {
  const view: Record<string, string | number> = {};
  for (const use of uses) view[use.key] = filler(use.key);
  for (const v of declared) {
    const value = given[v.key] ?? v.fallback_value;
    if (typeof value === "string" || typeof value === "number") view[v.key] = value;
  }
  return view;
}

/** A version's fields filled in. */
export function renderVersion(
  version: Content,
  view: Record<string, string | number>,
  renderer = newRenderer(),
) {
  return {
    subject: version.subject === null ? null : renderField(renderer, version.subject, view, false),
    html: renderField(renderer, version.html, view, true),
    text: version.text === null ? null : renderField(renderer, version.text, view, false),
  };
}
