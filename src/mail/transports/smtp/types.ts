export interface SmtpOptions {
  host: string;
  port: number;
  /**
   * `starttls`: plain, then STARTTLS, which must be offered. `tls`: TLS from the first byte (465).
   * `none`: no TLS at all, only for loopback tests.
   */
  security: "starttls" | "tls" | "none";
  /** AUTH PLAIN, or LOGIN when PLAIN is not offered; sent once the connection is under TLS. */
  auth?: { user: string; pass: string };
  /** The EHLO argument: this sender's host name. */
  heloName: string;
  /** Per command, the greeting and the connection included. Default 30000. */
  timeoutMs?: number;
}

export interface SmtpEnvelope {
  /** The reverse path; "" for the null sender of bounces. */
  from: string;
  to: string[];
}

export type SmtpStage =
  | "connect"
  | "greeting"
  | "ehlo"
  | "starttls"
  | "auth"
  | "mail"
  | "rcpt"
  | "data"
  | "message"
  | "rset";

export interface SmtpRejection {
  recipient: string;
  code: number;
  response: string;
}

/**
 * `permanent` is true only for a 5xx reply: 4xx replies, network failures and timeouts may pass.
 * `code` is null when the failure was not an SMTP reply.
 */
export type SmtpResult =
  | { ok: true; code: number; response: string; rejected: SmtpRejection[] }
  | { ok: false; permanent: boolean; code: number | null; response: string; stage: SmtpStage };
