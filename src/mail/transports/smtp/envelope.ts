import type { Capabilities } from "./capabilities";
import { SmtpFailure } from "./failure";
import type { SmtpEnvelope } from "./types";

const NON_ASCII = /[\u0080-\uffff]/;

/** Control characters, space and DEL could end a command line early or split it: command injection. */
function breaksCommandLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** An address also must not leave the angle brackets it is sent in. */
const isUnsafeAddress = (address: string) =>
  breaksCommandLine(address) || address.includes("<") || address.includes(">");

/** Input no server could accept fails before connecting, and permanently: a retry cannot help. */
export function checkEnvelope(envelope: SmtpEnvelope, heloName: string): SmtpFailure | null {
  if (!heloName || breaksCommandLine(heloName)) {
    return new SmtpFailure("ehlo", null, "invalid EHLO name", true);
  }
  if (isUnsafeAddress(envelope.from)) {
    return new SmtpFailure("mail", null, "invalid sender address", true);
  }
  if (envelope.to.length === 0) return new SmtpFailure("rcpt", null, "no recipients", true);
  if (envelope.to.some((recipient) => !recipient || isUnsafeAddress(recipient))) {
    return new SmtpFailure("rcpt", null, "invalid recipient address", true);
  }
  return null;
}

/** MAIL FROM with the parameters the server understands and the message needs. */
export function mailFromCommand(
  envelope: SmtpEnvelope,
  capabilities: Capabilities,
  message: { size: number; eightBit: boolean },
): string {
  let command = `MAIL FROM:<${envelope.from}>`;
  // Declared up front, a message over the server's limit is refused before its bytes are sent.
  if (capabilities.has("SIZE")) command += ` SIZE=${message.size}`;
  if (message.eightBit && capabilities.has("8BITMIME")) command += " BODY=8BITMIME";
  const internationalized = [envelope.from, ...envelope.to].some((address) => NON_ASCII.test(address));
  if (internationalized && capabilities.has("SMTPUTF8")) command += " SMTPUTF8";
  return command;
}
