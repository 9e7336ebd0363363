/** One recipient's envelope: each recipient gets its own, so a bounce names whom it is about. */
export interface Envelope {
  /** The envelope sender (MAIL FROM): this recipient's VERP bounce address, where bounces come back. */
  mailFrom: string;
  recipient: string;
}

/** One built, signed message (the same bytes for every recipient) and one envelope per recipient. */
export interface OutgoingMessage {
  emailId: string;
  /** The sender's address, as in the From header. */
  from: string;
  envelopes: Envelope[];
  raw: string;
}

/** What became of one envelope in one attempt. */
export type EnvelopeOutcome =
  | { kind: "accepted"; response: string }
  | {
      kind: "refused";
      permanent: boolean;
      response: string;
      /**
       * The refusal was of the message or the session (DATA, a lost connection), not of the
       * recipient: it decides the recipient's state but counts no bounce.
       */
      messageLevel?: true;
    }
  /** Never begun (the attempt's time was up): it stays open for the next attempt and counts no try. */
  | { kind: "untried" };

export type TransportResult =
  /** One outcome per envelope, in order. */
  | { kind: "answered"; outcomes: EnvelopeOutcome[] }
  /** `handOff` answered no: the email is no longer this sender's, and nothing more was sent. */
  | { kind: "withheld" };

/**
 * What the sender gives the transport with each message. `handOff` is called for each envelope (or
 * for all at once, by a transport that sends them in one call) at the last moment it can still be
 * held back (for SMTP, before that transaction's final dot; for the others, right before the call):
 * it records that those recipients may now get the message, so that a crash from here on makes
 * them `unknown` instead of sending them again, while the envelopes not handed off yet stay open
 * and are retried. It answers false when the sender lost the email meanwhile: the transport then
 * sends nothing more. An envelope refused before that moment (at MAIL or RCPT) calls no hand-off.
 */
export interface SendHooks {
  handOff(envelopes: Envelope[]): Promise<boolean>;
  /**
   * An envelope's outcome the moment it is known, while others of the message are still under
   * way or waiting (SMTP): the sender records it then, not at the end of the attempt. The last
   * outcomes come only in the result.
   */
  settled(envelope: Envelope, outcome: EnvelopeOutcome): void;
  /** Epoch ms no exchange may outlast, read before each one (a hand-off extends the lease). */
  deadline(): number;
  /** Epoch ms after which no envelope is begun: the rest are `untried`, for the next attempt. */
  startBy: number;
}

export interface Transport {
  readonly name: "capture" | "smtp" | "cloudflare";
  send(message: OutgoingMessage, hooks: SendHooks): Promise<TransportResult>;
  /** Ends what the transport keeps open between messages (SMTP sessions); safe to call twice. */
  close(): Promise<void>;
}
