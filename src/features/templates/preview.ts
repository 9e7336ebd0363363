import { joinVariables, renderInLayout } from "./layouts";
import { type MarkupProblem, newRenderer } from "./markup";
import type { TemplateContext } from "./template-writes";
import { findTemplateWithVersion, type VersionRow } from "./templates.repo";
import type { VariableValues } from "./templates.schemas";
import { checkValues, markupOf, renderVersion, type StoredVariable, variablesOf, viewOf } from "./variables";

/** What the dashboard's editor holds: a version's content, saved or not. */
export interface DraftContent {
  subject: string | null;
  html: string;
  text: string | null;
  variables: StoredVariable[];
}

/**
 * The frame a draft is previewed in: a template's layout (its published version, as a send takes
 * it), or, for a layout's own draft, `self` (its slot shows a placeholder block). `problem`: the
 * layout named cannot frame it (unknown, not a layout, or not published); the draft shows unframed.
 */
export type PreviewFrame =
  | { layout: Pick<VersionRow, "html" | "text" | "variables" | "subject"> }
  | { self: true }
  | { problem: string };

/** What a layout's own preview shows in its slot instead of `{{{@content}}}`. */
export const SLOT_PLACEHOLDER = {
  html: '<div style="border:2px dashed #9ca3af;padding:24px;margin:8px 0;text-align:center;color:#6b7280;font-family:sans-serif">The template\'s content goes here</div>',
  text: "[The template's content goes here]",
};

/** How a variable without a value shows in a preview: as it is written, for the eye to find. */
const placeholder = (key: string) => `{{${key}}}`;

/**
 * The frame for a draft naming `layoutRef` (a layout's id or alias): its published version, in one
 * D1 query (the (account_id, id) or (account_id, alias) index and the version's primary key). Another
 * workspace's layout is not found here: a problem, never a frame.
 */
export async function layoutFrame(ctx: Pick<TemplateContext, "db" | "accountId">, layoutRef: string) {
  const found = await findTemplateWithVersion(ctx.db, ctx.accountId, layoutRef, "published");
  if (found?.template.type !== "layout") {
    return { problem: `Layout ${layoutRef} is not a layout of this workspace: the preview shows no frame.` };
  }
  if (!found.version) {
    return {
      problem: `Layout ${found.template.name} has no published version: a publish or send of this template would be refused until it is published. The preview shows the draft without its frame.`,
    };
  }
  return { layout: found.version };
}

/**
 * The render check of POST /v1/templates/{id}/render applied to content not saved yet (the
 * dashboard's editor, as it is typed), with the same parser and renderer, inside its `frame` as a
 * send would put it (the layout's variables join the draft's). Nothing is thrown: what a publish or
 * a send would refuse is listed for the page to show beside the preview. `problems` (markup that
 * does not parse, tags other than variables, variables used but not declared) carry their field,
 * line and column; while the markup does not parse there is nothing to render.
 */
export function previewDraft(content: DraftContent, given: VariableValues = {}, frame?: PreviewFrame) {
  const version = { ...content, variables: JSON.stringify(content.variables) };
  const isLayout = Boolean(frame && "self" in frame);
  const layout = frame && "layout" in frame ? frame.layout : null;
  const markup = markupOf(version, isLayout);
  const layoutUses = layout ? markupOf(layout, true).uses : [];
  const declared = joinVariables(content.variables, layout ? variablesOf(layout) : null);
  const check = checkValues(declared, given);
  const declaredKeys = new Set(declared.map((v) => v.key));
  const uses = [...markup.uses, ...layoutUses];
  const usedOnly = new Set(uses.map((use) => use.key).filter((key) => !declaredKeys.has(key)));
  const problems: MarkupProblem[] = [...markup.problems, ...markup.undeclared];
  const render = () => {
    const view = viewOf(declared, given, uses, placeholder);
    const renderer = newRenderer();
    if (!isLayout) return renderInLayout(renderVersion(version, view, renderer), layout, view, renderer);
    // A layout's own draft: its slot holds a visible block, as a template's content would.
    const slot = {
      subject: null,
      html: SLOT_PLACEHOLDER.html,
      text: content.text === null ? null : SLOT_PLACEHOLDER.text,
    };
    return renderInLayout(slot, content, view, renderer);
  };
  return {
    rendered: markup.problems.length === 0 ? render() : null,
    problems,
    layoutProblem: frame && "problem" in frame ? frame.problem : null,
    missing: [...check.missing, ...usedOnly],
    unused: check.undeclared,
    mistyped: check.mistyped,
  };
}

export type DraftPreview = ReturnType<typeof previewDraft>;
