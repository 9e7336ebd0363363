import type { Transport } from "./transport";

/**
 * Development and tests: the message is kept (the pipeline stores every built message in R2, and
 * GET /v1/emails/{id}/content serves it) and counts as sent. Nothing leaves the machine.
 */
export const captureTransport: Transport = {
  name: "capture",
  async send() {
    return { kind: "sent", response: "250 captured (EMAIL_TRANSPORT=capture)", rejected: [] };
  },
};
