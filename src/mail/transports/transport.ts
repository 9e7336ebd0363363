/** One built, signed message and its SMTP envelope. */
export interface OutgoingMessage {
  emailId: string;
  from: string;
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
