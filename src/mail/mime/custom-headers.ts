/** Checks on caller-supplied headers: the ways they could corrupt or hijack the message. */
import { hasControlCharacter } from "../../lib/text";
import { customHeaderValue, foldHeader } from "./fold";

const FIELD_NAME = /^[!-9;-~]+$/;

/** Headers the builder writes itself; a custom one of these names would replace or contradict it. */
const STRUCTURAL = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "reply-to",
  "dkim-signature",
]);

/**
 * Every Content-* field describes the MIME structure (RFC 2045), which the builder alone decides,
 * so Content-Type and Content-Transfer-Encoding are refused along with the rest of the family.
 */
const isStructural = (lowerName: string) => STRUCTURAL.has(lowerName) || lowerName.startsWith("content-");

/** The headers as ordered pairs, or an Error naming the first problem. */
export function checkCustomHeaders(headers: Record<string, string>): Array<[string, string]> {
  const seen = new Set<string>();
  return Object.entries(headers).map(([name, value]) => {
    if (!FIELD_NAME.test(name)) {
      throw new Error(`Custom header name ${JSON.stringify(name)} is not a valid RFC 5322 field name.`);
    }
    const lower = name.toLowerCase();
    if (isStructural(lower)) {
      throw new Error(`Custom header ${name} is not allowed: the message builder sets it.`);
    }
    if (seen.has(lower)) throw new Error(`Custom header ${name} is given more than once.`);
    seen.add(lower);
    if (/[\r\n]/.test(value)) {
      throw new Error(`Custom header ${name} contains a line break (possible header injection).`);
    }
    if (hasControlCharacter(value, { allowTab: true })) {
      throw new Error(`Custom header ${name} contains a control character.`);
    }
    return [name, value];
  });
}

/** The folded header lines; throws on the first header that could not be written safely. */
export function customHeaderLines(headers: Record<string, string>): string[] {
  return checkCustomHeaders(headers).map(([name, value]) => foldHeader(name, customHeaderValue(value)));
}
