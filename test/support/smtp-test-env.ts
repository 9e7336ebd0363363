/**
 * What the Node-side SMTP fixtures tell the Workers tests: shared by the global setup, which starts
 * them, and the tests, which read it from the `SMTP_TEST` binding. No Node imports: workerd loads it.
 */
export interface SmtpTestEnv {
  /** STARTTLS, then AUTH PLAIN or LOGIN is required before MAIL. */
  submissionPort: number;
  /** Like `submissionPort` but only offers AUTH LOGIN. */
  loginOnlyPort: number;
  /** TLS from the first byte (port 465 style), AUTH required. */
  implicitTlsPort: number;
  /** Offers STARTTLS with a certificate no trusted CA signed. */
  untrustedPort: number;
  /** Neither STARTTLS nor AUTH, nor PIPELINING. */
  plainPort: number;
  /** Like `submissionPort`, but each answer to MAIL, RCPT and the dot takes 150 ms. */
  slowPort: number;
  /** Like `submissionPort`, but each answer to MAIL, RCPT and the dot takes 20 ms, a real network's round trip. */
  distantPort: number;
  /** Accepts connections and never says a word. */
  silentPort: number;
  /** Nothing listens here. */
  closedPort: number;
  /** GET answers every message the SMTP fixtures accepted, as `ReceivedMessage[]` (see `receivedContaining`). */
  mailboxUrl: string;
}

export interface ReceivedMessage {
  server: string;
  /** The SMTP session (one connection) it came in on, and its transaction's number within it. */
  session: string;
  transaction: number;
  heloName: string;
  /** Whether the session was under TLS when DATA arrived. */
  secure: boolean;
  user: string | null;
  from: string;
  to: string[];
  /** The message exactly as received, dot-stuffing undone. */
  raw: string;
}

export const SMTP_TEST_USER = { user: "mailer@example.test", pass: "correct horse battery staple" };

/** Every fixture server answers RCPT for these addresses with this reply. */
export const RCPT_REJECTIONS: Record<string, { code: number; message: string }> = {
  "nobody@example.test": { code: 550, message: "5.1.1 No such user" },
  "busy@example.test": { code: 451, message: "4.3.0 Mailbox busy, try again later" },
};

/**
 * The messages the SMTP fixtures accepted whose raw bytes contain `text` (a Message-ID, a test's
 * marker), read from the mailbox endpoint (`mailboxUrl`), which filters them itself.
 */
export async function receivedContaining(mailboxUrl: string, text: string): Promise<ReceivedMessage[]> {
  const res = await fetch(`${mailboxUrl}?containing=${encodeURIComponent(text)}`);
  return (await res.json()) as ReceivedMessage[];
}
