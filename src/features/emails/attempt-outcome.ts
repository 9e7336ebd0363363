import type { EnvelopeOutcome } from "../../mail/transports/transport";
import type { RecipientOutcome } from "./attempt-end.repo";
import type { OpenRecipient } from "./delivery.repo";
import type { EmailRow } from "./emails.repo";

/** A recipient's tries in all, with growing pauses between them; after the last it has failed. */
export const MAX_ATTEMPTS = 6;
export const backoffSeconds = (tries: number) => Math.min(30 * 2 ** (tries - 1), 3600);
/**
 * An attempt that began nothing (its time went in building, or waiting for a session) comes back
 * after this pause rather than at once, so that it cannot spin.
 */
const NOTHING_BEGUN_PAUSE_SECONDS = 30;

const NOT_BEGUN = "Not begun within this attempt's time; it goes in the next attempt.";

/**
 * What one answer makes of one open recipient; `null` for an envelope never begun (it stays as it
 * was, spending no try). Its pause before the next try counts from `since`, the attempt's claim. A refusal of the recipient itself is also its bounce: hard for a 5xx, soft
 * for a 4xx (counted once per email). A temporary refusal on the last of the recipient's tries
 * fails it.
 */
export function recipientOutcomeOf(
  open: OpenRecipient,
  outcome: EnvelopeOutcome,
  since: number,
  fromTransport = true,
): RecipientOutcome | null {
  if (outcome.kind === "untried") return null;
  const { address } = open;
  if (outcome.kind === "accepted") return { address, state: "accepted", response: outcome.response };
  const bounce: Pick<RecipientOutcome, "bounce"> =
    outcome.messageLevel || !fromTransport ? {} : { bounce: outcome.permanent ? "hard" : "soft" };
  const base = { address, response: outcome.response, fromTransport, ...bounce };
  if (outcome.permanent) return { ...base, state: "rejected" };
  const tries = open.attempts + 1;
  if (tries >= MAX_ATTEMPTS) return { ...base, state: "failed" };
  return { ...base, state: "deferred", retryAt: since + backoffSeconds(tries) * 1000 };
}

/** How an attempt ended for its email, from its recipients' outcomes. */
export interface AttemptVerdict {
  status: "queued" | "sent" | "bounced" | "failed";
  lastResponse: string;
  /** When `queued`: when it is due again. */
  nextAttemptAt: number | null;
}

/**
 * The email's status after an attempt: `queued` again while any recipient is still open (never
 * begun, deferred with tries left, or not due in this attempt), due when the first of them is;
 * else `sent` when the transport accepted it for someone (now or before), `bounced` when every
 * recipient of this attempt was refused for good and one of them bounced, else `failed`.
 */
export function verdictOf(
  email: EmailRow,
  open: OpenRecipient[],
  outcomes: Map<string, RecipientOutcome | null>,
  reached: boolean,
  now: number,
): AttemptVerdict {
  const due: number[] = [];
  for (const recipient of open) {
    if (!outcomes.has(recipient.address)) due.push(recipient.retryAt ?? now);
    else {
      const outcome = outcomes.get(recipient.address);
      if (outcome === null) due.push(now);
      else if (outcome?.state === "deferred") due.push(outcome.retryAt ?? now);
    }
  }
  const answered = [...outcomes.values()].filter((o) => o !== null);
  const refusal = answered.find((o) => o.state !== "accepted");
  const acceptance = answered.find((o) => o.state === "accepted");
  if (due.length > 0) {
    const begun = answered.length > 0;
    const first = Math.min(...due);
    return {
      status: "queued",
      lastResponse: (acceptance ?? refusal)?.response ?? NOT_BEGUN,
      nextAttemptAt: begun ? first : Math.max(first, now + NOTHING_BEGUN_PAUSE_SECONDS * 1000),
    };
  }
  const lastResponse = (reached ? acceptance : refusal)?.response ?? email.lastResponse ?? NOT_BEGUN;
  if (reached || email.sentAt !== null) return { status: "sent", lastResponse, nextAttemptAt: null };
  const bounced = answered.every((o) => o.state === "rejected") && answered.some((o) => o.bounce);
  return { status: bounced ? "bounced" : "failed", lastResponse, nextAttemptAt: null };
}
