import { z } from "@hono/zod-openapi";
import { CAMPAIGN_STATUSES } from "../../db/schema";
import { offsetQuery } from "../../lib/pagination";

/**
 * The dashboard's campaign forms. They carry strings only: the values then go through the API's
 * own body schemas (CreateCampaignBodySchema, UpdateCampaignBodySchema, SendCampaignBodySchema,
 * TestCampaignBodySchema), so every rule and message is the API's.
 */

const done = z.string().max(40).optional().openapi({ description: "Which confirmation to show." });

export const CampaignListQuery = offsetQuery(20).extend({
  status: z.enum(CAMPAIGN_STATUSES).optional().openapi({ description: "Only campaigns in this status." }),
  done,
});

export const CampaignPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "cmp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

/** The editor's group search: without script the page is asked again with it. */
const groupSearch = z.string().max(200).optional().openapi({
  description:
    "Part of a contact group's name (any case): the picker lists the groups whose name contains it.",
});

export const DoneQuery = z.object({ done, group_q: groupSearch });

export const EditorQuery = z.object({ group_q: groupSearch });

const text = (max: number) => z.string().max(max);

/** A checkbox group posts one field per ticked box: none, one (a string) or several. */
const GroupsField = z
  .union([text(100), z.array(text(100)).max(100)])
  .optional()
  .openapi({ description: "One `contact_group_ids` field per ticked group." });

export const GroupChoicesQuery = z.object({ group_q: groupSearch, contact_group_ids: GroupsField });

/** Repeated fields (one per row): none, one (a string) or several. */
const rows = (description: string) =>
  z
    .union([text(1000), z.array(text(1000)).max(100)])
    .optional()
    .openapi({ description });

export const CampaignForm = z.object({
  name: text(1000),
  from: text(1000),
  reply_to: text(1000).optional(),
  subject: text(2000),
  html: text(1_000_000).optional(),
  text: text(1_000_000).optional(),
  body: z.enum(["html", "template"]).optional().openapi({
    description:
      "Which body the editor's radio chose: `html` (then any template is dropped) or `template` (then html and text are). Without it, whatever is filled is sent, as the API takes it.",
  }),
  template_id: text(100).optional().openapi({ description: "The template to send (its id)." }),
  template_version_id: text(64).optional().openapi({
    description: "The version the campaign names, kept while `template_version_of` is the chosen template.",
  }),
  template_version_of: text(100).optional(),
  variable_key: rows("One per static value row: the variable's key (empty rows are ignored)."),
  variable_value: rows("One per row: the value, a number for a variable the template declares as a number."),
  contact_group_ids: GroupsField,
  groups_shown: z.literal("1").optional().openapi({
    description:
      "Sent by the editor, which lists every chosen group: only then does a save change the groups.",
  }),
});

export const SendForm = z.object({
  scheduled_at: text(40)
    .optional()
    .openapi({ description: "A date and time in UTC (`YYYY-MM-DDTHH:MM`); empty sends now." }),
});

export const TestForm = z.object({ to: text(400) });

export type CampaignDraft = z.infer<typeof CampaignForm>;

/** The ticked groups as a list, whichever way the form posted them. */
export const groupIdsOf = (groups: CampaignDraft["contact_group_ids"]) =>
  groups === undefined ? [] : Array.isArray(groups) ? groups : [groups];

const listOf = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The static value rows with a key, in order. */
export const staticRows = (form: Partial<CampaignDraft>) => {
  const values = listOf(form.variable_value);
  return listOf(form.variable_key).flatMap((key, i) =>
    key.trim() ? [{ key: key.trim(), value: values[i] ?? "" }] : [],
  );
};

/** The declared type of each variable of the chosen template (and its layout). */
export type VariableTypes = Map<string, "string" | "number">;

/** The chosen template as the API's `template`: a number variable's value typed as a number. */
function templateOfForm(form: CampaignDraft, types: VariableTypes) {
  const id = form.template_id?.trim() ?? "";
  const version = form.template_version_id?.trim();
  const asType = (key: string, value: string) =>
    types.get(key) === "number" && value.trim() !== "" && Number.isFinite(Number(value))
      ? Number(value)
      : value;
  return {
    id,
    ...(version && form.template_version_of === id ? { version_id: version } : {}),
    variables: Object.fromEntries(staticRows(form).map((row) => [row.key, asType(row.key, row.value)])),
  };
}

/**
 * The form's body as the API's: the radio's choice sends one body and clears the other (a template
 * or html/text); without it, what is filled is sent and the API refuses both.
 */
function bodyOf(form: CampaignDraft, types: VariableTypes) {
  const html = form.html?.trim() ? form.html : null;
  const text = form.text?.trim() ? form.text : null;
  if (form.body === "template") return { html: null, text: null, template: templateOfForm(form, types) };
  if (form.body === "html") return { html, text, template: null };
  return { html, text, ...(form.template_id?.trim() ? { template: templateOfForm(form, types) } : {}) };
}

/** The form's values as the API's body: empty optional fields left out, groups always a list. */
export function asCampaignBody(form: CampaignDraft, types: VariableTypes = new Map()) {
  return {
    name: form.name,
    from: form.from,
    subject: form.subject,
    reply_to: form.reply_to?.trim() ? form.reply_to : null,
    ...bodyOf(form, types),
    contact_group_ids: groupIdsOf(form.contact_group_ids),
  };
}

/**
 * A save's body: the groups change only when the form listed them all (`groups_shown`), so a form
 * that did not show some chosen group (an older page) cannot drop it.
 */
export function asCampaignChanges(form: CampaignDraft, types: VariableTypes = new Map()) {
  const { contact_group_ids, ...rest } = asCampaignBody(form, types);
  return form.groups_shown === "1" ? { ...rest, contact_group_ids } : rest;
}

/** `2026-12-01T09:30` (a datetime-local input, read as UTC) as the API's ISO 8601; empty: now. */
export function scheduledAtOf(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(trimmed) ? `${trimmed}:00Z` : trimmed;
}
