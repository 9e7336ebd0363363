import { asFailure } from "./smtp/failure";
import { SessionPool } from "./smtp/session-pool";
import type { SmtpOptions, SmtpResult } from "./smtp/types";
import type { Envelope, RejectedRecipient, Transport, TransportResult } from "./transport";

export type SmtpConfig = Pick<
  Env,
  "SMTP_HOST" | "SMTP_PORT" | "SMTP_SECURITY" | "SMTP_USER" | "SMTP_PASSWORD" | "SMTP_HELO_NAME"
>;

function optionsOf(config: SmtpConfig): SmtpOptions {
  const security =
    config.SMTP_SECURITY === "tls" || config.SMTP_SECURITY === "none" ? config.SMTP_SECURITY : "starttls";
  return {
    host: config.SMTP_HOST,
    port: Number(config.SMTP_PORT || (security === "tls" ? 465 : 587)),
    security,
    ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? "" } } : {}),
    heloName: config.SMTP_HELO_NAME || "localhost",
  };
}

const responseOf = (result: SmtpResult) => `${result.code ?? ""} ${result.response}`.trim();

/** A failed transaction: a refusal at RCPT is about the recipient (a bounce); any other is not. */
function rejectionOf(envelope: Envelope, result: Extract<SmtpResult, { ok: false }>): RejectedRecipient {
  return {
    recipient: envelope.recipient,
    permanent: result.permanent,
    response: responseOf(result),
    ...(result.stage === "rcpt" ? {} : { messageLevel: true as const }),
  };
}

/**
 * A smart host over TCP (STARTTLS and AUTH): a few sessions (see `SessionPool`) carry the
 * messages one after another, one transaction per recipient, each with that recipient's own MAIL
 * FROM and the same bytes. The hand-off is asked for just before the first final dot. 5xx answers
 * are permanent, 4xx and network errors are not.
 */
export function smtpTransport(config: SmtpConfig): Transport {
  const pool = new SessionPool(optionsOf(config));
  return {
    name: "smtp",
    async send(message, hooks): Promise<TransportResult> {
      const envelopes = message.envelopes.map((e) => ({ from: e.mailFrom, to: [e.recipient] }));
      let results: SmtpResult[];
      try {
        const outcome = await pool.with((session) =>
          session.send(envelopes, message.raw, { beforeCommit: hooks.handOff, deadline: hooks.deadline }),
        );
        if (outcome.withheld) return { kind: "withheld" };
        results = outcome.results;
      } catch (error) {
        // The session could not be opened: every envelope shares the answer.
        const failure = asFailure("connect", error).toResult();
        results = envelopes.map(() => failure);
      }
      const rejected = message.envelopes.flatMap((envelope, i) => {
        const result = results[i];
        return result && !result.ok ? [rejectionOf(envelope, result)] : [];
      });
      const accepted = results.find((r) => r.ok);
      if (accepted) return { kind: "sent", response: responseOf(accepted), rejected };
      const failures = results.filter((r) => !r.ok);
      return {
        kind: "failed",
        permanent: failures.every((f) => f.permanent),
        response: failures[0] ? responseOf(failures[0]) : "no transaction was attempted",
        rejected,
      };
    },
    close: () => pool.close(),
  };
}
