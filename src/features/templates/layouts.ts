import { AppError } from "../../lib/errors";
import { CONTENT_SLOT, type Renderer, renderField } from "./markup";
import type { VersionRow } from "./templates.repo";
import type { StoredVariable } from "./variables";

/**
 * Layouts: a template of type `layout` is a frame (header, footer, unsubscribe block) with one
 * content slot, `{{{@content}}}`, that templates name with `layout_id`. A send renders the
 * template, then the layout's published version with the template's html (and text) in the slot.
 */

export type TemplateType = "template" | "layout";

/** The variables of a send through a layout: the template's, then the layout's it does not declare itself. */
export function joinVariables(template: StoredVariable[], layout: StoredVariable[] | null): StoredVariable[] {
  if (!layout) return template;
  const own = new Set(template.map((v) => v.key));
  return [...template, ...layout.filter((v) => !own.has(v.key))];
}

type Rendered = { subject: string | null; html: string; text: string | null };

/**
 * A rendered template put in its layout: the layout's html around the template's html; its text
 * around the template's text when both have one (a template without text stays without; a layout
 * without text leaves the template's as it is). The slot takes the content as it is, never read
 * as markup again.
 */
export function renderInLayout(
  rendered: Rendered,
  layout: Pick<VersionRow, "html" | "text"> | null,
  view: Record<string, string | number>,
  renderer: Renderer,
): Rendered {
  if (!layout) return rendered;
  const around = (source: string, content: string, html: boolean) =>
    renderField(renderer, source, { ...view, [CONTENT_SLOT]: content }, html);
  return {
    subject: rendered.subject,
    html: around(layout.html, rendered.html, true),
    text:
      rendered.text === null || layout.text === null
        ? rendered.text
        : around(layout.text, rendered.text, false),
  };
}

/** A layout is a frame: the fields a send would take from it are refused (400), as is a layout of its own. */
export function assertLayoutFields(input: {
  subject?: string | null | undefined;
  from?: string | null | undefined;
  reply_to?: string | string[] | null | undefined;
  layout_id?: string | null | undefined;
}) {
  const refused = (["subject", "from", "reply_to", "layout_id"] as const).filter(
    (field) => input[field] !== undefined && input[field] !== null,
  );
  if (refused.length === 0) return;
  const details = refused.map((field) => ({
    path: `body.${field}`,
    message:
      field === "layout_id"
        ? "a layout cannot use a layout"
        : "a layout has none: the template sent inside it gives it",
  }));
  const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
  throw new AppError(400, "validation_error", "Invalid request", summary, { details });
}

export const layoutInvalid = (detail: string) =>
  new AppError(422, "template_layout_invalid", "Template layout is invalid", detail);

export const layoutNotPublished = (templateRef: string, layoutId: string) =>
  new AppError(
    422,
    "template_layout_not_published",
    "Template layout not published",
    `Template ${templateRef} uses layout ${layoutId}, which has no published version (or was removed): publish the layout (POST /v1/templates/{id}/publish).`,
  );
