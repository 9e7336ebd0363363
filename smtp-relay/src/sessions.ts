/**
 * What the relay remembers about each open connection beyond smtp-server's own session: the TLS
 * protocol, the auth outcome, whether a log row was written, and the total-time limit's timer.
 */
import type { SMTPServerSession } from "smtp-server";
import type { LogShipper, SmtpLogRecord } from "./log-shipper";
import type { SmtpReply } from "./replies";

/** What a successful AUTH stores in `session.user`: the key stays in memory for this session only. */
export interface RelayUser {
  apiKey: string;
  keyHash: string;
}

interface SessionState {
  tls: string | null;
  auth: "none" | "succeeded" | "failed";
  keyHash: string | null;
  recorded: boolean;
  timer: NodeJS.Timeout | null;
}

export class Sessions {
  private readonly states = new Map<string, SessionState>();

  constructor(private readonly logs: LogShipper) {}

  open(id: string, timer: NodeJS.Timeout | null): void {
    this.states.set(id, { tls: null, auth: "none", keyHash: null, recorded: false, timer });
  }

  secured(id: string, protocol: string | null): void {
    const state = this.states.get(id);
    if (state) state.tls = protocol;
  }

  authenticated(id: string, keyHash: string, succeeded: boolean): void {
    const state = this.states.get(id);
    if (!state) return;
    state.keyHash = keyHash;
    // A session that failed once and then succeeded is an authenticated session.
    if (succeeded || state.auth !== "succeeded") state.auth = succeeded ? "succeeded" : "failed";
  }

  /** One log row for what just happened in this session. */
  record(session: SMTPServerSession, reply: SmtpReply, message: { size: number | null } | null): void {
    const state = this.states.get(session.id);
    if (!state) return;
    state.recorded = true;
    const envelope = message ? session.envelope : null;
    const mailFrom = envelope?.mailFrom;
    const record: SmtpLogRecord = {
      session_id: session.id,
      client_ip: session.remoteAddress,
      tls: state.tls,
      auth: state.auth,
      key_hash: state.keyHash,
      mail_from: mailFrom ? mailFrom.address : null,
      rcpt_to: envelope ? envelope.rcptTo.map((r) => r.address) : [],
      size: message?.size ?? null,
      outcome: reply.outcome,
      reply_code: reply.code,
      reply: `${reply.code} ${reply.message}`.slice(0, 1000),
      email_id: reply.emailId,
      at: new Date().toISOString(),
    };
    this.logs.add(record);
  }

  /**
   * Ends the bookkeeping. An authenticated session that sent nothing still gets a row; one that
   * never tried AUTH does not (port scanners would fill the table with rows nobody owns).
   */
  close(session: SMTPServerSession): void {
    const state = this.states.get(session.id);
    if (!state) return;
    if (state.timer) clearTimeout(state.timer);
    if (!state.recorded && state.auth === "succeeded") {
      this.record(
        session,
        { code: 221, message: "2.0.0 Closed without a message", outcome: "closed", emailId: null },
        null,
      );
    }
    this.states.delete(session.id);
  }

  get size(): number {
    return this.states.size;
  }
}
