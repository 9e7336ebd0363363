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

export interface RejectedRecipient {
  recipient: string;
  permanent: boolean;
  response: string;
  /**
   * The refusal was of the message or the session (DATA, a lost connection), not of the
   * recipient: it decides the recipient's state but counts no bounce.
   */
  messageLevel?: true;
}

export type TransportResult =
  | { kind: "sent"; response: string; rejected: RejectedRecipient[] }
  /** Nothing was delivered. `recipients` lists those the refusal was about when it was per recipient. */
  | { kind: "failed"; permanent: boolean; response: string; rejected: RejectedRecipient[] }
  /** `handOff` answered no: the email is no longer this sender's, and nothing was sent. */
  | { kind: "withheld" };

/**
 * What the sender gives the transport with each message. `handOff` is called once, at the last
 * moment the message can still be held back (for SMTP, before the data's final dot; for the
 * others, right before the call): it records that the message may now reach someone, so that a
 * crash from here on closes the email instead of sending it again, and it answers false when the
 * sender lost the email meanwhile, in which case the transport sends nothing. A transaction that
 * never reaches that moment (every recipient refused) sends nothing and calls no hand-off.
 */
export interface SendHooks {
  handOff(): Promise<boolean>;
  /** Epoch ms by which the transport must have answered; work not begun by then is left for a retry. */
  deadline: number;
}

export interface Transport {
  readonly name: "capture" | "smtp" | "cloudflare";
  send(message: OutgoingMessage, hooks: SendHooks): Promise<TransportResult>;
  /** Ends what the transport keeps open between messages (SMTP sessions); safe to call twice. */
  close(): Promise<void>;
}
