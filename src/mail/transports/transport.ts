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
  | { kind: "failed"; permanent: boolean; response: string; rejected: RejectedRecipient[] };

export interface Transport {
  readonly name: "capture" | "smtp" | "cloudflare";
  send(message: OutgoingMessage): Promise<TransportResult>;
}
