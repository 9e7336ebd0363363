import type { Environment } from "../env";
import { signatureHeader } from "./signature";
import { webhookUrlProblem } from "./url-guard";

/** The spec's delivery timeout: one attempt, 10 seconds, no retry. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_USER_AGENT = "Service-Webhooks/1.0";
const MAX_ERROR_LENGTH = 300;

/** One event as it goes out: the exact bytes that are signed are the bytes sent. */
export interface OutgoingEvent {
  id: string;
  name: string;
  body: string;
}

export interface DeliveryResult {
  status: "succeeded" | "failed";
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const failed = (error: string, statusCode: number | null, durationMs: number): DeliveryResult => ({
  status: "failed",
  statusCode,
  durationMs,
  error: error.slice(0, MAX_ERROR_LENGTH),
});

function reasonOf(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The one attempt of one delivery. 2xx acknowledges; anything else, a redirect (never followed), a
 * network error or silence past the timeout is a failure, recorded and not retried (spec). The URL
 * is judged again, so entries stored under older rules or another ENVIRONMENT are not reached.
 */
export async function deliver(
  target: { url: string; secret: string },
  event: OutgoingEvent,
  environment: Environment,
): Promise<DeliveryResult> {
  const problem = webhookUrlProblem(target.url, environment);
  if (problem) return failed(`not sent: the URL ${problem}`, null, 0);
  const started = Date.now();
  try {
    const response = await fetch(target.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": WEBHOOK_USER_AGENT,
        "X-Webhook-Event": event.name,
        "X-Webhook-Id": event.id,
        "X-Service-Signature": await signatureHeader(
          target.secret,
          event.body,
          Math.floor(Date.now() / 1000),
        ),
      },
      body: event.body,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    const durationMs = Date.now() - started;
    // The answer's body is not read: only the status matters, and the connection is freed at once.
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) {
      return { status: "succeeded", statusCode: response.status, durationMs, error: null };
    }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("Location") ?? "(no Location)";
      return failed(`redirect to ${location} not followed`, response.status, durationMs);
    }
    return failed(`HTTP ${response.status}`, response.status, durationMs);
  } catch (error) {
    return failed(reasonOf(error), null, Date.now() - started);
  }
}
