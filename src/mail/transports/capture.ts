import type { Transport } from "./transport";

/** Where the capture transport keeps each envelope's copy: under its email, one per recipient. */
export const capturedPrefix = (emailId: string) => `captured/${emailId}/`;

/**
 * Development and tests: nothing leaves the machine. Each envelope's copy is kept in R2 as that
 * recipient's server would store it, with `Return-Path: <its MAIL FROM>` on top (outside the DKIM
 * signature, which covers the same bytes in every copy), and counts as sent. The development
 * mailbox lists these copies; GET /v1/emails/{id}/content serves the one message all copies share.
 */
export function captureTransport(files: R2Bucket): Transport {
  return {
    name: "capture",
    async send(message, hooks) {
      if (!(await hooks.handOff())) return { kind: "withheld" };
      await Promise.all(
        message.envelopes.map((envelope) =>
          files.put(
            `${capturedPrefix(message.emailId)}${encodeURIComponent(envelope.recipient)}.eml`,
            `Return-Path: <${envelope.mailFrom}>\r\n${message.raw}`,
            {
              httpMetadata: { contentType: "message/rfc822" },
              customMetadata: { mailFrom: envelope.mailFrom, recipient: envelope.recipient },
            },
          ),
        ),
      );
      return { kind: "sent", response: "250 captured (EMAIL_TRANSPORT=capture)", rejected: [] };
    },
    close: async () => {},
  };
}
