import { z } from "@hono/zod-openapi";
import type { SeenVersion } from "../../features/templates/editor";
import type { VariableValues } from "../../features/templates/templates.schemas";
import type { getTemplate } from "../../features/templates/templates.service";
import type { TestDraft } from "../../features/templates/test-send";
import { validationError } from "../../lib/router";

/**
 * The dashboard's template forms. They carry strings only: the values then go through the API's
 * own body schemas (CreateTemplateBodySchema, UpdateTemplateBodySchema), so every rule and message
 * is the API's. Variables are rows of four fields (key, type, fallback, and the preview's value,
 * which is never saved), posted once per row.
 */

export type Template = Awaited<ReturnType<typeof getTemplate>>;

const text = (max: number) => z.string().max(max);
const Kind = z.enum(["template", "layout"]);
const done = z.string().max(40).optional().openapi({ description: "Which confirmation to show." });

export const TemplatePath = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "id", in: "path" }, example: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const VersionPath = TemplatePath.extend({
  version_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "version_id", in: "path" } }),
});

export const ListQuery = z
  .object({
    after: text(64).optional().openapi({ description: "An id: the templates older than it." }),
    before: text(64).optional().openapi({ description: "An id: the templates newer than it." }),
    done,
    type: Kind.optional().openapi({ description: "`layout`: the layouts; otherwise the templates." }),
  })
  .refine((q) => !(q.after && q.before), "give `after` or `before`, not both");

export const DoneQuery = z.object({ done });

export const NewQuery = z.object({
  type: Kind.optional().openapi({ description: "What the form creates: a template (default) or a layout." }),
});

/** One field per variable row: none, one (a string) or several. */
const rows = (description: string) =>
  z
    .union([text(2000), z.array(text(2000)).max(100)])
    .optional()
    .openapi({ description });

const seenFields = {
  version_id: text(64).openapi({ description: "The current version the page showed." }),
  revision: z.coerce.number().int().min(0).openapi({ description: "Its revision when the page showed it." }),
};

export const TemplateForm = z.object({
  type: Kind.optional().openapi({
    description: "A new one's type (fixed at creation): `layout` has no subject, from, reply-to or layout.",
  }),
  name: text(1000),
  alias: text(200).optional(),
  subject: text(2000).optional(),
  from: text(1000).optional(),
  reply_to: text(20_000).optional().openapi({ description: "Addresses separated by commas." }),
  layout_id: text(100).optional().openapi({ description: "The layout's id; empty: no layout." }),
  html: text(2_000_000).optional(),
  text: text(1_000_000).optional(),
  var_key: rows("Each variable's key (a row without a key is left out)."),
  var_type: rows("Each variable's type: string or number."),
  var_fallback: rows("Each variable's fallback value; empty: none (every send must give one)."),
  var_value: rows("Each variable's value for the preview and the test send; never saved."),
  version_id: seenFields.version_id.optional(),
  revision: seenFields.revision.optional(),
});

export const SeenForm = z.object(seenFields);

export type TemplateValues = z.infer<typeof TemplateForm>;

const listOf = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const blankToNull = (value: string | undefined) => (value?.trim() ? value : null);

/** A number typed for a number variable; anything else stays a string for the API to refuse. */
const asType = (type: string, value: string): string | number =>
  type === "number" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;

interface Row {
  key: string;
  type: "string" | "number";
  fallback: string;
  value: string;
}

export function variableRows(form: Partial<TemplateValues>): Row[] {
  const types = listOf(form.var_type);
  const fallbacks = listOf(form.var_fallback);
  const values = listOf(form.var_value);
  return listOf(form.var_key).flatMap((key, i) =>
    key.trim()
      ? [
          {
            key: key.trim(),
            type: types[i] === "number" ? ("number" as const) : ("string" as const),
            fallback: fallbacks[i] ?? "",
            value: values[i] ?? "",
          },
        ]
      : [],
  );
}

const variablesOf = (form: TemplateValues) =>
  variableRows(form).map((row) => ({
    key: row.key,
    type: row.type,
    fallback_value: row.fallback === "" ? null : asType(row.type, row.fallback),
  }));

/** The preview's values: the rows with a value typed. */
export const previewValues = (form: TemplateValues): VariableValues =>
  Object.fromEntries(
    variableRows(form)
      .filter((row) => row.value !== "")
      .map((row) => [row.key, asType(row.type, row.value)]),
  );

const replyToOf = (value: string | undefined) => {
  const list = (value ?? "")
    .split(",")
    .map((address) => address.trim())
    .filter(Boolean);
  return list.length === 0 ? null : list;
};

/** A form posts a textarea's line breaks as CRLF; the value typed had LF (the textarea's own). */
const typed = (value: string | null) => value?.replace(/\r\n/g, "\n") ?? null;

interface Body {
  name: string;
  alias: string | null;
  subject?: string | null;
  from?: string | null;
  reply_to?: string[] | null;
  layout_id?: string | null;
  html: string;
  text: string | null;
  variables: ReturnType<typeof variablesOf>;
}

/**
 * The form as the API's body (create and update take the same fields); a layout's has none of the
 * fields the API refuses for a layout (subject, from, reply_to, layout_id).
 */
export function asTemplateBody(form: TemplateValues): Body {
  const content = {
    name: form.name,
    alias: blankToNull(form.alias)?.trim() ?? null,
    html: typed(form.html ?? "") ?? "",
    text: typed(blankToNull(form.text)),
    variables: variablesOf(form),
  };
  if (form.type === "layout") return content;
  return {
    ...content,
    subject: blankToNull(form.subject),
    from: blankToNull(form.from)?.trim() ?? null,
    reply_to: replyToOf(form.reply_to),
    // A form without the field (not this editor's) leaves the layout as it is.
    ...(form.layout_id === undefined ? {} : { layout_id: blankToNull(form.layout_id)?.trim() ?? null }),
  };
}

/** The form's content as the preview renders it, saved or not. */
export function draftOf(form: TemplateValues): TestDraft {
  const body = asTemplateBody(form);
  return {
    subject: body.subject ?? null,
    html: body.html,
    text: body.text,
    variables: body.variables.map((v) => ({ ...v, fallback_value: v.fallback_value })),
    from: body.from ?? null,
    replyTo: body.reply_to ?? [],
    layoutId: body.layout_id ?? null,
  };
}

/** The version a form's page showed (every form that changes a template carries it). */
export function seenOf(form: {
  version_id?: string | undefined;
  revision?: number | undefined;
}): SeenVersion {
  if (form.version_id === undefined || form.revision === undefined) {
    throw validationError([{ path: ["version_id"], message: "is required: reload the page" }], "form");
  }
  return { versionId: form.version_id, revision: form.revision };
}

/** A saved template as the form shows it. */
export function formValuesOf(template: Template): TemplateValues {
  return {
    type: template.type ?? "template",
    layout_id: template.layout_id ?? "",
    name: template.name,
    alias: template.alias ?? "",
    subject: template.subject ?? "",
    from: template.from ?? "",
    reply_to: (template.reply_to ?? []).join(", "),
    html: template.html,
    text: template.text ?? "",
    var_key: template.variables.map((v) => v.key),
    var_type: template.variables.map((v) => v.type),
    var_fallback: template.variables.map((v) => (v.fallback_value === null ? "" : String(v.fallback_value))),
    var_value: template.variables.map(() => ""),
  };
}

/**
 * The fields of a save that differ from the template as its page showed it: a save without a
 * change sends none, so a published template gets no draft for it.
 */
export function changedFields(body: Body, shown: Template): Partial<Body> {
  const before: Required<Body> = {
    layout_id: shown.layout_id ?? null,
    name: shown.name,
    alias: shown.alias,
    subject: shown.subject,
    from: shown.from,
    reply_to: shown.reply_to,
    html: shown.html,
    text: shown.text,
    variables: shown.variables.map((v) => ({ key: v.key, type: v.type, fallback_value: v.fallback_value })),
  };
  return Object.fromEntries(
    Object.entries(body).filter(
      ([field, value]) => JSON.stringify(value) !== JSON.stringify(before[field as keyof Body]),
    ),
  );
}
