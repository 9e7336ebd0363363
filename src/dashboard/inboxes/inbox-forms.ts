import { z } from "@hono/zod-openapi";
import { MAX_WEBHOOKS } from "../../features/inboxes/inboxes.schemas";
import { offsetQuery } from "../../lib/pagination";

/**
 * The dashboard's inbox forms. They only carry strings: the values then go through the API's own
 * body schemas (CreateInboxBodySchema, UpdateInboxBodySchema), so every rule and message is the API's.
 */

export const InboxListQuery = offsetQuery(20).extend({
  done: z.string().max(40).optional().openapi({ description: "Which confirmation to show." }),
});

export const InboxPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const WebhookPath = InboxPath.extend({
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_WEBHOOKS - 1)
    .openapi({
      param: { name: "index", in: "path", required: true },
      description: "The webhook's position in the inbox's `webhooks` array, from 0.",
      example: 0,
    }),
});

export const DoneQuery = z.object({
  done: z.string().max(40).optional().openapi({ description: "Which confirmation to show." }),
});

const text = (max: number) => z.string().max(max);

export const InboxSettingsForm = z.object({
  name: text(1000),
  email_address: text(1000),
  status_after_reply: text(100),
  /** Optional: a form without it leaves the inbox's rule as it is (`manual` for a new inbox). */
  assignment_rule: text(100).optional(),
});

/** A checkbox group posts one `events` field per ticked box: none, one (a string) or several. */
export const EventsField = z
  .union([text(100), z.array(text(100)).max(50)])
  .optional()
  .openapi({ description: "One `events` field per subscribed event (the checkboxes)." });

export const eventList = (events: string | string[] | undefined) =>
  events === undefined ? [] : Array.isArray(events) ? events : [events];

/** Which webhook a form acts on: its index, and its URL as the page showed it (a stale page is caught). */
const CurrentUrl = text(4000).openapi({
  description:
    "The webhook's URL as the page showed it; when the entry at `index` has another, the list changed since (409).",
});

export const AddWebhookForm = z.object({ url: text(4000), events: EventsField });
export const EditWebhookForm = z.object({ current_url: CurrentUrl, url: text(4000), events: EventsField });
export const WebhookActionForm = z.object({ current_url: CurrentUrl });

export type InboxSettingsDraft = z.infer<typeof InboxSettingsForm>;
export type WebhookDraft = { url: string; events: string[] };
