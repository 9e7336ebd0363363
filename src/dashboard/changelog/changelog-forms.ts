import { z } from "@hono/zod-openapi";
import { CHANGELOG_CATEGORIES, CHANGELOG_STATUSES } from "../../db/schema/changelog";
import { offsetQuery } from "../../lib/pagination";
import { scheduledAtOf } from "../campaigns/campaign-forms";

/**
 * The dashboard's changelog forms. They carry strings only: the values then go through the API's
 * own body schemas (CreateChangelogBodySchema, UpdateChangelogBodySchema), so every rule and
 * message is the API's.
 */

const done = z.string().max(40).optional().openapi({ description: "Which confirmation to show." });

export const ChangelogListQuery = offsetQuery(20).extend({
  status: z.enum(CHANGELOG_STATUSES).optional().openapi({ description: "Only entries in this status." }),
  category: z
    .enum(CHANGELOG_CATEGORIES)
    .optional()
    .openapi({ description: "Only entries of this category." }),
  done,
});

export const EntryPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "chg_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const DoneQuery = z.object({ done });

const text = (max: number) => z.string().max(max);

export const EntryForm = z.object({
  title: text(1000),
  category: text(40),
  status: text(40),
  published_at: text(40).optional().openapi({
    description: "A date and time in UTC (`YYYY-MM-DDTHH:MM`); read for scheduled and published only.",
  }),
  body_markdown: text(400_000).optional(),
});

export type EntryDraft = z.infer<typeof EntryForm>;

/**
 * The form's values as the API's POST body. A draft has no publication time, so a time left in
 * the field when choosing draft is dropped rather than refused; for published, an empty field
 * means now.
 */
export function asCreateBody(form: EntryDraft) {
  const at = form.status === "draft" ? undefined : scheduledAtOf(form.published_at);
  return {
    title: form.title,
    category: form.category,
    status: form.status,
    body_markdown: form.body_markdown ?? "",
    ...(at === undefined ? {} : { published_at: at }),
  };
}

/**
 * The form's values as the API's PATCH body. The field shows the entry's time to the minute, so
 * the time is sent only when it was changed: saving a published entry keeps its exact
 * `published_at`, and a scheduled entry published now does not carry its future time along.
 */
export function asPatchBody(form: EntryDraft, current: { published_at: string | null }) {
  const body = asCreateBody(form);
  const shown = minuteOf(current.published_at);
  if (form.published_at?.trim() === shown) delete body.published_at;
  return body;
}

/** An ISO instant as a datetime-local input shows it (UTC, to the minute); empty for none. */
export const minuteOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 16) : "");
