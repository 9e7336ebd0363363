import { sendTransactions } from "./smtp/client";
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
 * A smart host over TCP (STARTTLS and AUTH): one connection, one transaction per recipient, each
 * with that recipient's own MAIL FROM and the same bytes. 5xx answers are permanent, 4xx and
 * network errors are not.
 */
export function smtpTransport(config: SmtpConfig): Transport {
  const options = optionsOf(config);
  return {
    name: "smtp",
    async send(message): Promise<TransportResult> {
      const results = await sendTransactions(
        options,
        message.envelopes.map((e) => ({ from: e.mailFrom, to: [e.recipient] })),
        message.raw,
      );
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
  };
}
