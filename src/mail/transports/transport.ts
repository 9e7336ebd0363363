/** One built, signed message and its SMTP envelope. */
export interface OutgoingMessage {
  emailId: string;
  /** The sender's address, as in the From header. */
  from: string;
  /** The envelope sender (MAIL FROM): the email's VERP bounce address, where bounces come back. */
  returnPath: string;
  recipients: string[];
  raw: string;
}

export interface RejectedRecipient {
  recipient: string;
  permanent: boolean;
  response: string;
}

export type TransportResult =
  | { kind: "sent"; response: string; rejected: RejectedRecipient[] }
  /** Nothing was delivered. `recipients` lists those the refusal was about when it was per recipient. */
  | { kind: "failed"; permanent: boolean; response: string; rejected: RejectedRecipient[] };

export interface Transport {
  readonly name: "capture" | "smtp" | "cloudflare";
  send(message: OutgoingMessage): Promise<TransportResult>;
}
