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

export const CampaignForm = z.object({
  name: text(1000),
  from: text(1000),
  reply_to: text(1000).optional(),
  subject: text(2000),
  html: text(1_000_000).optional(),
  text: text(1_000_000).optional(),
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

/** The form's values as the API's body: empty optional fields left out, groups always a list. */
export function asCampaignBody(form: CampaignDraft) {
  return {
    name: form.name,
    from: form.from,
    subject: form.subject,
    reply_to: form.reply_to?.trim() ? form.reply_to : null,
    html: form.html?.trim() ? form.html : null,
    text: form.text?.trim() ? form.text : null,
    contact_group_ids: groupIdsOf(form.contact_group_ids),
  };
}

/**
 * A save's body: the groups change only when the form listed them all (`groups_shown`), so a form
 * that did not show some chosen group (an older page) cannot drop it.
 */
export function asCampaignChanges(form: CampaignDraft) {
  const { contact_group_ids, ...rest } = asCampaignBody(form);
  return form.groups_shown === "1" ? { ...rest, contact_group_ids } : rest;
}

/** `2026-12-01T09:30` (a datetime-local input, read as UTC) as the API's ISO 8601; empty: now. */
export function scheduledAtOf(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(trimmed) ? `${trimmed}:00Z` : trimmed;
}
