/** What a claimed email-event outbox row carries to whoever attempts it (email-delivery.ts claims). */

/**
 * How long a claim holds a row: past the 10 s timeout and the recording of the outcome. A row still
 * `delivering` after that lost its outcome with its Worker and is due again (the receiver may see
 * the event twice, with the same `X-Webhook-Id`; it never sees it zero times).
 */
export const CLAIM_LEASE_MS = 60_000;

/** One claimed outbox row with its endpoint as it is now: everything one attempt needs. */
export interface EmailDeliveryJob {
  outboxId: number;
  endpointId: string;
  eventId: string;
  event: string;
  body: string;
  /** This attempt's number, from 1; the claim counted it. */
  attempt: number;
  url: string;
  /** Encrypted, as stored; decrypted only inside the attempt. */
  secret: string;
  enabled: boolean;
  /** The clock of the claim: attempts, retries and the disabling rule are timed from it. */
  now: number;
  /**
   * The row's `next_attempt_at` as this holder last set it: the claim's lease. A sender renews it
   * only from this exact value, so of two runs handed the same claim (a launch that failed after
   * its sender had started, and the fallback run inline) one attempts and the other finds it gone.
   */
  leaseUntil: number;
}
