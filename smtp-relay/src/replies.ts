/**
 * What the SMTP client is told for each answer of the API. The point is to keep the API's
 * distinctions (unlike relays that answer one code for every upstream failure): a client must
 * retry what can succeed later (4xx: it keeps the message) and give up on what cannot (5xx).
 */
import type { ApiAnswer } from "./api-client";

export type Outcome = "accepted" | "deferred" | "rejected" | "auth_failed" | "closed";

export interface SmtpReply {
  code: number;
  /** The reply text after the code, enhanced status code first (RFC 3463). */
  message: string;
  outcome: Outcome;
  emailId: string | null;
}

const reply = (code: number, message: string, emailId: string | null = null): SmtpReply => ({
  code,
  message,
  emailId,
  outcome: code < 300 ? "accepted" : code === 535 ? "auth_failed" : code < 500 ? "deferred" : "rejected",
});

const text = (value: unknown, fallback: string) =>
  typeof value === "string" && value ? value.replace(/\s+/g, " ").slice(0, 400) : fallback;

export const TEMPORARY_FAILURE = "4.3.0 Temporary failure passing the message on; try again later";

/** The cap on DATA buffered across sessions was reached: 452 is "insufficient system storage" (RFC 5321). */
export const RELAY_BUSY = reply(
  452,
  "4.3.1 Insufficient system resources: too many messages in transit; try again later",
);

/** Hourly and daily quotas reset within a client's retry window; the others do not. */
function quotaReply(body: Record<string, unknown>): SmtpReply {
  const detail = text(body.message, "Sending quota reached");
  if (body.quota === "emails_per_hour" || body.quota === "emails_per_day") {
    return reply(452, `4.3.1 ${detail}`);
  }
  if (body.quota === "recipients_per_email") return reply(554, `5.5.3 ${detail}`);
  return reply(554, `5.7.0 ${detail}`);
}

/** The reply to the end of DATA, from the answer of POST /v1/emails/raw. */
export function replyForSend(answer: ApiAnswer): SmtpReply {
  if (answer.kind === "unreachable") return reply(451, TEMPORARY_FAILURE);
  const { status, body } = answer;
  if (status === 200 && typeof body.id === "string")
    return reply(250, `2.0.0 Ok: queued as ${body.id}`, body.id);
  switch (status) {
    case 400:
      return reply(550, `5.6.0 Message refused: ${text(body.message ?? body.error, "malformed message")}`);
    case 401:
      return reply(535, "5.7.8 Authentication credentials invalid (the API key was revoked)");
    case 403:
      return body.code === "domain_not_verified"
        ? reply(
            550,
            `5.7.1 Sender domain ${text(body.domain, "")} is not verified: ${text(body.help, "")}`.trim(),
          )
        : reply(550, `5.7.1 ${text(body.message ?? body.error, "Not allowed")}`);
    case 413:
      return reply(552, "5.3.4 Message too big: the limit is 25 MB");
    case 422: {
      const list = Array.isArray(body.suppressed) ? body.suppressed.join(", ") : "";
      return reply(550, `5.1.1 Recipient suppressed after bounces or complaints: ${list}`.trim());
    }
    case 429:
      return body.code === "limit_exceeded"
        ? quotaReply(body)
        : reply(451, `4.7.0 Rate limit exceeded; try again in ${answer.retryAfter ?? "a few"} seconds`);
    default:
      // 5xx and anything unexpected: the client keeps the message and retries; nothing is lost.
      return reply(451, TEMPORARY_FAILURE);
  }
}

export type AuthVerdict =
  | { kind: "accepted"; accountId: string; keyPrefix: string }
  | { kind: "refused"; reply: SmtpReply }
  | { kind: "unavailable"; reply: SmtpReply };

/**
 * The verdict on AUTH, from the answer of GET /v1/emails/raw/credentials. AUTH has its own
 * temporary code, 454 (RFC 4954), for a rate limit or an API that does not answer.
 */
export function verdictForAuth(answer: ApiAnswer): AuthVerdict {
  if (answer.kind === "http" && answer.status === 200) {
    return {
      kind: "accepted",
      accountId: String(answer.body.account_id ?? ""),
      keyPrefix: String(answer.body.key_prefix ?? ""),
    };
  }
  if (answer.kind === "http" && (answer.status === 401 || answer.status === 403)) {
    const why = answer.status === 403 ? text(answer.body.message, "the key cannot send") : "invalid API key";
    return { kind: "refused", reply: reply(535, `5.7.8 Authentication credentials invalid: ${why}`) };
  }
  if (answer.kind === "http" && answer.status === 429) {
    return { kind: "unavailable", reply: reply(454, "4.7.0 Rate limit exceeded; try again shortly") };
  }
  return {
    kind: "unavailable",
    reply: reply(454, "4.7.0 Temporary authentication failure; try again later"),
  };
}
