import type { SmtpReply } from "./reply-reader";
import type { SmtpResult, SmtpStage } from "./types";

/** Why a session stopped, thrown inside the session and turned into the result in one place. */
export class SmtpFailure extends Error {
  constructor(
    readonly stage: SmtpStage,
    readonly code: number | null,
    readonly response: string,
    /** Only a 5xx reply is final, unless the caller knows better (input no server could accept). */
    readonly permanent = isPermanent(code),
  ) {
    super(`SMTP ${stage} failed: ${response}`);
    this.name = "SmtpFailure";
  }

  /** Whether the server still follows the dialogue, so a QUIT is worth sending. */
  get isReply(): boolean {
    return this.code !== null;
  }

  toResult(): Extract<SmtpResult, { ok: false }> {
    return {
      ok: false,
      permanent: this.permanent,
      code: this.code,
      response: this.response,
      stage: this.stage,
    };
  }
}

export const isPermanent = (code: number | null) => code !== null && code >= 500 && code < 600;

export const replyFailure = (stage: SmtpStage, reply: SmtpReply) =>
  new SmtpFailure(stage, reply.code, reply.text);

/** Anything thrown that is not already an SmtpFailure: a network error, a timeout, a bad reply. */
export function asFailure(stage: SmtpStage, error: unknown): SmtpFailure {
  if (error instanceof SmtpFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SmtpFailure(stage, null, message || "connection failed");
}
