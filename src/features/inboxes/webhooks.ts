import { environmentOf } from "../../env";
import { decryptSecret, encryptSecret, randomBase64Url } from "../../lib/crypto";
import { validationError } from "../../lib/router";
import type { EventName } from "../../webhooks/outbox";
import { webhookUrlProblem } from "../../webhooks/url-guard";
import type { WebhookInput } from "./inboxes.schemas";

/** One webhook of an inbox, its secret in clear: what the API answers and the dispatcher signs with. */
export interface Webhook {
  url: string;
  events: EventName[];
  enabled: boolean;
  secret: string;
}

/** 32 bytes: above the 24 product.md asks for, and 43 base64url characters. */
const SECRET_BYTES = 32;

export const newWebhookSecret = () => `whsec_${randomBase64Url(SECRET_BYTES)}`;

export type WebhookEnv = Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">;

/** Refuses the whole list when any URL is refused, naming every bad entry in one 400. */
function checkUrls(inputs: WebhookInput[], env: WebhookEnv) {
  const environment = environmentOf(env);
  const issues = inputs.flatMap((webhook, i) => {
    const problem = webhookUrlProblem(webhook.url, environment);
    return problem ? [{ path: ["webhooks", i, "url"], message: problem }] : [];
  });
  if (issues.length > 0) throw validationError(issues, "json");
}

/**
 * The `webhooks` column for a list a client sent, which replaces the stored one whole (spec). An
 * entry sent with its secret keeps it; one without gets a new secret, so no stored webhook ever
 * lacks one. Secrets are stored only encrypted.
 */
export async function webhooksColumn(inputs: WebhookInput[], env: WebhookEnv): Promise<string> {
  checkUrls(inputs, env);
  const stored = await Promise.all(
    inputs.map(async (webhook) => ({
      url: webhook.url,
      events: webhook.events,
      enabled: webhook.enabled,
      secret: await encryptSecret(env.ENCRYPTION_KEY, webhook.secret ?? newWebhookSecret()),
    })),
  );
  return JSON.stringify(stored);
}

/** The webhooks of a stored inbox with their secrets decrypted. */
export async function readWebhooks(column: string, encryptionKey: string): Promise<Webhook[]> {
  const stored = JSON.parse(column) as Webhook[];
  return Promise.all(
    stored.map(async (webhook) => ({
      url: webhook.url,
      events: webhook.events,
      enabled: webhook.enabled,
      secret: await decryptSecret(encryptionKey, webhook.secret),
    })),
  );
}
