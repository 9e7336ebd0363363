import type { Statement } from "../../db/client";
import { describeError, log } from "../../lib/logger";
import type { Envelope, EnvelopeOutcome, SendHooks } from "../../mail/transports/transport";
import { progressStatements, type RecipientOutcome } from "./attempt-end.repo";
import { recipientOutcomeOf } from "./attempt-outcome";
import { LEASE_MS, type OpenRecipient, RECORD_MARGIN_MS } from "./delivery.repo";
import type { EmailRow } from "./emails.repo";

/** The writes a batch's attempts share (group-committed, see deliver.ts). */
export interface SharedWrites {
  /** Hands these recipients of the email off; answers whether its claim still held. */
  handOff(email: EmailRow, recipients: string[], now: number): Promise<boolean>;
  /** Commits statements with whatever other emails' statements are ready too. */
  record(statements: Statement[]): Promise<void>;
}

/**
 * One email's attempt as it goes: the hand-off of each envelope, each outcome written the moment
 * it is known while other envelopes are still at the transport (so a crash leaves in doubt only
 * the envelopes truly in flight), and the lease each of those writes renews. Times are the
 * attempt's own clock (`clock`, which tests may set ahead); the transport's deadlines are real time.
 */
export class AttemptRecorder {
  #lease: number;
  readonly #writes: Promise<void>[] = [];
  /** Outcomes already written, by address. */
  readonly written = new Map<string, RecipientOutcome>();
  /** When the transport first accepted the email in this attempt, as written. */
  reachedAt: number | null = null;

  constructor(
    private readonly shared: SharedWrites,
    private readonly email: EmailRow,
    private readonly open: Map<string, OpenRecipient>,
    private readonly clock: () => number,
    /** The claim's time on that clock: deferred recipients' pauses count from it. */
    private readonly claimedAt: number,
    /** How long after the claim envelopes may still be begun (`sendWindowMs`). */
    private readonly windowMs: number,
  ) {
    this.#lease = email.leaseUntil ?? clock() + LEASE_MS;
  }

  /** The transport's hooks, in real time. */
  hooks(): SendHooks {
    const skew = this.clock() - Date.now();
    return {
      handOff: (envelopes) => this.#handOff(envelopes),
      settled: (envelope, outcome) => this.#settled(envelope, outcome),
      deadline: () => this.#lease - RECORD_MARGIN_MS - skew,
      startBy: this.claimedAt + this.windowMs - skew,
    };
  }

  async #handOff(envelopes: Envelope[]): Promise<boolean> {
    const now = this.clock();
    const held = await this.shared.handOff(
      this.email,
      envelopes.map((e) => e.recipient),
      now,
    );
    if (held) this.#lease = Math.max(this.#lease, now + LEASE_MS);
    return held;
  }

  #settled(envelope: Envelope, answer: EnvelopeOutcome) {
    const open = this.open.get(envelope.recipient);
    const now = this.clock();
    const outcome = open && recipientOutcomeOf(open, answer, this.claimedAt);
    if (!outcome) return;
    const write = this.shared.record(progressStatements(this.email, [outcome], now)).then(
      () => {
        this.written.set(outcome.address, outcome);
        this.#lease = Math.max(this.#lease, now + LEASE_MS);
        if (outcome.state === "accepted") this.reachedAt ??= now;
      },
      // Not written: the attempt's end writes it instead (or the sweep settles it).
      (error) => log.warn("emails.progress_unrecorded", { email_id: this.email.id, ...describeError(error) }),
    );
    this.#writes.push(write);
  }

  /** Waits for the outcomes being written, so that the attempt's end comes after them. */
  async settledWrites(): Promise<void> {
    await Promise.all(this.#writes);
  }
}
