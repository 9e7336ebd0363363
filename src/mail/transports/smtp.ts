import { WITHHELD } from "./smtp/client";
import { asFailure } from "./smtp/failure";
import { messageData } from "./smtp/message-data";
import { MAX_SESSIONS, SessionPool } from "./smtp/session-pool";
import type { SmtpOptions, SmtpResult } from "./smtp/types";
import type { Envelope, EnvelopeOutcome, SendHooks, Transport, TransportResult } from "./transport";

export type SmtpConfig = Pick<
  Env,
  "SMTP_HOST" | "SMTP_PORT" | "SMTP_SECURITY" | "SMTP_USER" | "SMTP_PASSWORD" | "SMTP_HELO_NAME"
>;

function optionsOf(config: SmtpConfig): SmtpOptions {
  const security =
    config.SMTP_SECURITY === "tls" || config.SMTP_SECURITY === "none" ? config.SMTP_SECURITY : "starttls";
  return {
    host: config.SMTP_HOST,
    port: Number(config.SMTP_PORT || (security === "tls" ? 465 : 587)),
    security,
    ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? "" } } : {}),
    heloName: config.SMTP_HELO_NAME || "localhost",
  };
}

const responseOf = (result: SmtpResult) => `${result.code ?? ""} ${result.response}`.trim();

/** A transaction's result as the envelope's outcome: a refusal at RCPT is about the recipient (a bounce). */
function outcomeOf(result: SmtpResult): EnvelopeOutcome {
  if (result.ok) return { kind: "accepted", response: responseOf(result) };
  return {
    kind: "refused",
    permanent: result.permanent,
    response: responseOf(result),
    ...(result.stage === "rcpt" ? {} : { messageLevel: true as const }),
  };
}

const UNTRIED: EnvelopeOutcome = { kind: "untried" };

/**
 * A smart host over TCP (STARTTLS and AUTH). Each recipient is one transaction with its own MAIL
 * FROM and the same bytes, handed off just before its own final dot. A message's envelopes are
 * spread over up to five lanes, each taking a session of the pool (see `SessionPool`) for one
 * transaction at a time: one slow recipient holds up only its own lane, and the emails of a batch
 * take turns on the sessions. No envelope is begun after `startBy`: those left are `untried` and
 * go in the next attempt, spending none of their retries. A session that cannot be opened defers
 * the envelope that waited for it, and, once no lane has a session, every envelope still waiting:
 * a server that is down is not asked again for each recipient. 5xx answers are permanent, 4xx and
 * network errors are not.
 */
export function smtpTransport(config: SmtpConfig): Transport {
  const pool = new SessionPool(optionsOf(config));
  return {
    name: "smtp",
    send: (message, hooks) => sendOverLanes(pool, message.envelopes, messageData(message.raw), hooks),
    close: () => pool.close(),
  };
}

async function sendOverLanes(
  pool: SessionPool,
  envelopes: Envelope[],
  data: Uint8Array,
  hooks: SendHooks,
): Promise<TransportResult> {
  const outcomes: EnvelopeOutcome[] = envelopes.map(() => UNTRIED);
  const waiting = envelopes.map((_, i) => i);
  let withheld = false;
  let inFlight = 0;
  let lanes = Math.min(envelopes.length, MAX_SESSIONS);
  /** Why the last lane that could not open a session stopped. */
  let unreachable: EnvelopeOutcome | null = null;
  const timeLeft = () => Date.now() < hooks.startBy;

  const lane = async () => {
    while (!withheld && waiting.length > 0 && timeLeft()) {
      const i = waiting.shift() as number;
      const envelope = envelopes[i] as Envelope;
      inFlight++;
      let outcome: EnvelopeOutcome | typeof WITHHELD;
      try {
        outcome = await transactOnce(pool, envelope, data, hooks, timeLeft);
      } catch (error) {
        // No session could be opened: this lane stops (see below for the envelopes still waiting).
        outcomes[i] = unreachable = outcomeOf(asFailure("connect", error).toResult());
        inFlight--;
        break;
      }
      inFlight--;
      if (outcome === WITHHELD) {
        withheld = true;
        break;
      }
      outcomes[i] = outcome;
      const more = inFlight > 0 || (waiting.length > 0 && timeLeft());
      if (more && outcome.kind !== "untried") hooks.settled(envelope, outcome);
    }
    lanes--;
    // The last lane stopped for want of a session while there was still time: the server is out of
    // reach, and every envelope still waiting shares the answer rather than being tried one by one.
    if (lanes === 0 && unreachable && !withheld && timeLeft()) {
      for (const i of waiting.splice(0)) outcomes[i] = unreachable;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return withheld ? { kind: "withheld" } : { kind: "answered", outcomes };
}

/**
 * One envelope's transaction on a session of the pool; throws when no session could be opened.
 * Waiting for a session can outlast the attempt's time: then it is not begun.
 */
async function transactOnce(
  pool: SessionPool,
  envelope: Envelope,
  data: Uint8Array,
  hooks: SendHooks,
  timeLeft: () => boolean,
): Promise<EnvelopeOutcome | typeof WITHHELD> {
  return pool.with(async (session) => {
    if (!timeLeft()) return UNTRIED;
    const result = await session.transact({ from: envelope.mailFrom, to: [envelope.recipient] }, data, {
      beforeCommit: () => hooks.handOff([envelope]),
      deadline: hooks.deadline,
    });
    return result === WITHHELD ? WITHHELD : outcomeOf(result);
  });
}
