import type { SQL } from "drizzle-orm";

/**
 * An email a send did not write because a recipient is suppressed: the dimensions it would have
 * had (its tags, the inbox of the ticket it replied in, its template) and a `key` of the caller's own, which its
 * `when` condition reads from the send's JSON (`send ->> '$.key'`).
 */
export interface SuppressedSend {
  tags: ReadonlyArray<{ name: string; value: string }>;
  inboxId?: string | undefined;
  /** The template and version it was built from (the report's template dimensions). */
  templateId?: string;
  templateVersionId?: string;
  key?: unknown;
  /** What its `email.suppressed` webhook events tell: the send's recipients (the suppressed among them get one each). */
  recipients?: readonly string[];
  from?: string;
  subject?: string;
  campaignId?: string;
  automationId?: string;
}

/** What one recipient's attempt or report came to: `deferred` is a deferral or a DSN delay. */
export interface RecipientFact {
  /** The email the recipient is of. */
  emailId: string;
  address: string;
  state: "accepted" | "deferred" | "rejected";
  response: string | null;
}

/**
 * What a feature adds to the batch that records a delivery outcome, so that what it counts moves
 * in the same transaction as the fact (a campaign's stats today). The email, tracking and bounce
 * code call `deliveryOutcomes` and never import the features that listen: those sit above them
 * and are registered by the composition root (src/jobs/outcome-listeners.ts).
 */
export interface DeliveryOutcomeListener {
  /**
   * After emails are created (and what links them, a ticket reply's message, is written): all the
   * emails of one batch at once, so their count is one statement, not one an email.
   */
  accepted(emailIds: string[], now: number): SQL[];
  /**
   * Before hand-offs to the transport: `claimed` is a condition on `emails` that matches the
   * emails handed off together, each under its hand-off's own claim (a round of hand-offs is one
   * statement, not one an email).
   */
  handedOff(claimed: SQL, now: number): SQL[];
  /**
   * Emails' attempts ended with `status` (`queued` again for a retry), before their own updates;
   * `reached`: the transport accepted them for someone by now; `claimed` is a condition on
   * `emails` (unqualified columns) that matches them, each under its claim: the attempts that
   * ended alike in one round of writes are told at once. Also told, with status `sending` and
   * `reached`, when the transport first accepts a recipient while the attempt's other envelopes
   * are still under way (the email's `sent_at` is set right after).
   */
  ended(claimed: SQL, status: string, reached: boolean, now: number): SQL[];
  /**
   * Recipients' outcomes, before their states are written: attempts' (under their claims, `guard`),
   * of one email or of every email whose attempt ended in one round, or a report's delays (`guard`
   * its own: the delay not recorded yet). `guard` is a condition on the email `e` and the
   * recipient's fact `r` (its JSON: `emailId`, `address`, `response`), columns qualified.
   */
  recipients(facts: RecipientFact[], guard: SQL, now: number): SQL[];
  /** Before a bounce or complaint of one recipient of an email is written to `bounces`. */
  bounced(emailId: string, address: string, kind: "hard" | "soft" | "complaint", now: number): SQL[];
  /**
   * Attempts ended (`sent`, `failed`, `bounced`; other statuses are no outcome): `claimed` matches
   * their emails, each under its claim, as for `ended`.
   */
  delivered(claimed: SQL, status: string, now: number): SQL[];
  /** The sweep closes the emails `handedOff` matches; to run before their own update. */
  recovered(handedOff: SQL, now: number): SQL[];
  /** Before the email's open is recorded (its `first_opened_at` still tells the first one). */
  firstOpen(emailId: string, now: number): SQL[];
  /**
   * Before the email's click on `url` is recorded (its `first_clicked_at` still tells the first
   * one, its `clicked` events the first on this link).
   */
  firstClick(emailId: string, now: number, url: string): SQL[];
  /** Before a bounce report's event is written; `wentOut` lists the statuses of an email that went out. */
  firstBounce(emailId: string, wentOut: SQL): SQL[];
  /**
   * Emails refused at send because a recipient is suppressed (no email row exists), each counted
   * only if `when` (given the send's JSON) holds as the statement runs: the refusal's own guard.
   */
  suppressed(accountId: string, sends: SuppressedSend[], when: (send: SQL) => SQL, now: number): SQL[];
}

/**
 * A hook: listeners added once each (registering the same object again, a module evaluated twice,
 * changes nothing), and the outcomes that hand back every listener's statements in registration
 * order. With none registered the outcomes throw: an entry that forgot the registration would
 * otherwise lose counters without a word. The worker has one (below); tests make their own.
 */
export function deliveryOutcomeHook() {
  const listeners: DeliveryOutcomeListener[] = [];
  const collect = (each: (listener: DeliveryOutcomeListener) => SQL[]): SQL[] => {
    if (listeners.length === 0) {
      throw new Error(
        "No delivery outcome listener is registered: import src/jobs/outcome-listeners.ts in the worker entry",
      );
    }
    return listeners.flatMap(each);
  };
  const outcomes: DeliveryOutcomeListener = {
    accepted: (emailIds, now) => collect((l) => l.accepted(emailIds, now)),
    handedOff: (claimed, now) => collect((l) => l.handedOff(claimed, now)),
    ended: (claimed, status, reached, now) => collect((l) => l.ended(claimed, status, reached, now)),
    recipients: (facts, guard, now) => collect((l) => l.recipients(facts, guard, now)),
    bounced: (emailId, address, kind, now) => collect((l) => l.bounced(emailId, address, kind, now)),
    delivered: (claimed, status, now) => collect((l) => l.delivered(claimed, status, now)),
    recovered: (handedOff, now) => collect((l) => l.recovered(handedOff, now)),
    firstOpen: (emailId, now) => collect((l) => l.firstOpen(emailId, now)),
    firstClick: (emailId, now, url) => collect((l) => l.firstClick(emailId, now, url)),
    firstBounce: (emailId, wentOut) => collect((l) => l.firstBounce(emailId, wentOut)),
    suppressed: (accountId, sends, when, now) => collect((l) => l.suppressed(accountId, sends, when, now)),
  };
  const register = (listener: DeliveryOutcomeListener) => {
    if (!listeners.includes(listener)) listeners.push(listener);
  };
  return { register, outcomes };
}

const hook = deliveryOutcomeHook();

/** Registered by the composition root (src/jobs/outcome-listeners.ts) only. */
export const registerDeliveryOutcomeListener = hook.register;

/** The statements the delivery, tracking and bounce pipelines splice into their own batches. */
export const deliveryOutcomes = hook.outcomes;
