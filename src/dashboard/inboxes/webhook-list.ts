import type { Webhook } from "../../features/inboxes/webhooks";
import { conflict } from "../../lib/errors";

/**
 * The `webhooks` array a dashboard action PATCHes, built the way an API client builds it: the
 * list as GET /v1/inboxes/{id} answered it, every kept entry sent back with its secret (so it
 * keeps it), a new entry without one (so the service generates it). The whole array replaces the
 * stored one, as the spec says.
 */

type Entry = { url: string; events: string[]; enabled: boolean; secret?: string };

const sentBack = (webhook: Webhook): Entry => ({
  url: webhook.url,
  events: webhook.events,
  enabled: webhook.enabled,
  secret: webhook.secret,
});

/**
 * The webhook at `index`, if it still has the URL the page showed; otherwise the list changed
 * since the page was loaded, and acting on whatever sits at that index now would be wrong.
 */
export function webhookAt(webhooks: Webhook[], index: number, shownUrl: string): Webhook {
  const webhook = webhooks[index];
  if (!webhook || webhook.url !== shownUrl) {
    throw conflict(
      "webhooks_changed",
      "Webhooks changed",
      "The inbox's webhooks changed since this page was loaded. Reload the page and try again.",
    );
  }
  return webhook;
}

export const withAdded = (webhooks: Webhook[], added: { url: string; events: string[] }): Entry[] => [
  ...webhooks.map(sentBack),
  { url: added.url, events: added.events, enabled: true },
];

export const withEdited = (
  webhooks: Webhook[],
  index: number,
  edit: Partial<Pick<Entry, "url" | "events" | "enabled">>,
): Entry[] =>
  webhooks.map((webhook, i) => (i === index ? { ...sentBack(webhook), ...edit } : sentBack(webhook)));

export const without = (webhooks: Webhook[], index: number): Entry[] =>
  webhooks.filter((_, i) => i !== index).map(sentBack);
