/** The email events an endpoint can subscribe to (product.md "Email event webhooks"). */
export const EMAIL_EVENT_NAMES = [
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.opened",
  "email.clicked",
  "email.failed",
  "email.suppressed",
  "contact.unsubscribed",
] as const;
export type EmailEventName = (typeof EMAIL_EVENT_NAMES)[number];

/** Sent only by POST /v1/webhooks/{id}/test, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT = "webhook.test";

/**
 * The delay after each failed attempt: 8 attempts, the last about 27.6 hours after the first.
 * Documented in the OpenAPI description of the endpoints; keep the two in step.
 */
export const RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;
