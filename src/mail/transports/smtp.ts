import { sendMail } from "./smtp/client";
import type { SmtpOptions } from "./smtp/types";
import type { Transport, TransportResult } from "./transport";

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

/** A smart host over TCP (STARTTLS and AUTH): 5xx answers are permanent, 4xx and network errors are not. */
export function smtpTransport(config: SmtpConfig): Transport {
  const options = optionsOf(config);
  return {
    name: "smtp",
    async send(message): Promise<TransportResult> {
      const result = await sendMail(
        options,
        { from: message.returnPath, to: message.recipients },
        message.raw,
      );
      if (result.ok) {
        return {
          kind: "sent",
          response: `${result.code} ${result.response}`,
          rejected: result.rejected.map((r) => ({
            recipient: r.recipient,
            permanent: r.code >= 500,
            response: `${r.code} ${r.response}`,
          })),
        };
      }
      const response = `${result.code ?? ""} ${result.response}`.trim();
      const perRecipient = result.stage === "rcpt";
      return {
        kind: "failed",
        permanent: result.permanent,
        response,
        rejected: perRecipient
          ? message.recipients.map((recipient) => ({ recipient, permanent: result.permanent, response }))
          : [],
      };
    },
  };
}
