import { EmailMessage } from "cloudflare:email";
import type { EnvelopeOutcome, Transport, TransportResult } from "./transport";

/**
 * Cloudflare's `send_email` binding. It takes one recipient per message, so each envelope is a
 * send of the same bytes, all handed off at once right before the calls; a recipient the platform
 * refuses (for instance an unverified destination) is deferred. The platform refuses an envelope
 * sender other than the From address ("From: header does not match mail from"), so this transport
 * ignores each envelope's VERP bounce address: bounces come back to the From address, an inbox's
 * or not, and a report reaching an inbox is matched to its email by the returned Message-ID, which
 * names the email only: it changes the recipient of a single-recipient email, and nothing for an
 * email with several (see `named-recipient.ts`).
 */
export function cloudflareTransport(binding: SendEmail): Transport {
  return {
    name: "cloudflare",
    async send(message, hooks): Promise<TransportResult> {
      if (!(await hooks.handOff(message.envelopes))) return { kind: "withheld" };
      const outcomes = await Promise.all(
        message.envelopes.map(async ({ recipient }): Promise<EnvelopeOutcome> => {
          try {
            await binding.send(new EmailMessage(message.from, recipient, message.raw));
            return { kind: "accepted", response: "250 accepted by send_email" };
          } catch (error) {
            return {
              kind: "refused",
              permanent: false,
              response: error instanceof Error ? error.message : String(error),
            };
          }
        }),
      );
      return { kind: "answered", outcomes };
    },
    close: async () => {},
  };
}
