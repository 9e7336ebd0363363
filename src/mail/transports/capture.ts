import type { Transport } from "./transport";

const CAPTURED_RESPONSE = "250 captured (EMAIL_TRANSPORT=capture)";

/**
 * Development and tests: nothing leaves the machine, every recipient is accepted, and nothing more
 * is written. The message was kept in R2 when it was built, and each recipient's acceptance is
 * recorded with this answer, so the development mailbox shows each envelope's copy from those two,
 * with the Return-Path its envelope carried (the VERP address, computed again from the same key).
 * Keeping a copy per envelope here cost one more R2 write per recipient, about a third of the local
 * cost of sending a campaign, for bytes already kept.
 */
export function captureTransport(): Transport {
  return {
    name: "capture",
    async send(message, hooks) {
      if (!(await hooks.handOff(message.envelopes))) return { kind: "withheld" };
      return {
        kind: "answered",
        outcomes: message.envelopes.map(() => ({ kind: "accepted", response: CAPTURED_RESPONSE })),
      };
    },
    close: async () => {},
  };
}
