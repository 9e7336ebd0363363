import { EmailMessage } from "cloudflare:email";
import type { Transport, TransportResult } from "./transport";

/**
 * Cloudflare's `send_email` binding. It takes one recipient per message, so each envelope is a
 * send of the same bytes; a recipient the platform refuses (for instance an unverified
 * destination) is reported as rejected, and the email counts as sent if any recipient got it. The
 * platform refuses an envelope sender other than the From address ("From: header does not match
 * mail from"), so this transport ignores each envelope's VERP bounce address: bounces come back to
 * the From address, an inbox's or not, and a report reaching an inbox is matched to its email by
 * the returned Message-ID, which names the email only: it changes the recipient of a
 * single-recipient email, and nothing for an email with several (see `named-recipient.ts`).
 */
export function cloudflareTransport(binding: SendEmail): Transport {
  return {
    name: "cloudflare",
    async send(message, hooks): Promise<TransportResult> {
      if (!(await hooks.handOff())) return { kind: "withheld" };
      const outcomes = await Promise.all(
        message.envelopes.map(async ({ recipient }) => {
          try {
            await binding.send(new EmailMessage(message.from, recipient, message.raw));
            return null;
          } catch (error) {
            return {
              recipient,
              permanent: false,
              response: error instanceof Error ? error.message : String(error),
            };
          }
        }),
      );
      const rejected = outcomes.filter((o) => o !== null);
      if (rejected.length === message.envelopes.length) {
        return {
          kind: "failed",
          permanent: false,
          response: rejected[0]?.response ?? "send_email failed",
          rejected,
        };
      }
      return { kind: "sent", response: "250 accepted by send_email", rejected };
    },
    close: async () => {},
  };
}
