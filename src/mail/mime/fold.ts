/** Header line assembly: RFC 5322 folding and the unstructured-text encoding rule. */
import { CRLF } from "./encoding";
import { encodeWords, needsEncodedWords } from "./words";

/** RFC 5322: lines SHOULD stay within 78 characters and MUST stay within 998. */
const SOFT_LIMIT = 78;
const HARD_LIMIT = 998;

/**
 * `Name: value` folded before whitespace so lines stay near 78 characters. Folding only inserts
 * CRLF in front of existing whitespace, so unfolding restores the value exactly. A run of text
 * with no whitespace that cannot fit in 998 characters is refused rather than broken.
 */
export function foldHeader(name: string, value: string): string {
  const [head = "", ...chunks] = `${name}: ${value}`.split(/(?=[ \t])/);
  const lines: string[] = [];
  let line = head;
  for (const chunk of chunks) {
    // A break before whitespace-only text would leave a whitespace-only line, which RFC 5322 forbids.
    const breakable = /[^ \t]/.test(chunk) && /[^ \t]/.test(line);
    if (breakable && line.length + chunk.length > SOFT_LIMIT) {
      lines.push(line);
      line = chunk;
    } else {
      line += chunk;
    }
  }
  lines.push(line);
  if (lines.some((l) => l.length > HARD_LIMIT)) {
    throw new Error(`The ${name} header has a word too long for a ${HARD_LIMIT}-character line.`);
  }
  return lines.join(CRLF);
}

/**
 * The Subject: encoded-words when it is not printable ASCII or already looks like an encoded-word,
 * which a decoder would otherwise decode.
 */
export function unstructuredValue(text: string): string {
  return needsEncodedWords(text) ? encodeWords(text) : text;
}

/** The folded Subject line; throws on a line break (header injection) or a word no line can hold. */
export function subjectLine(subject: string): string {
  if (/[\r\n]/.test(subject)) {
    throw new Error("The subject contains a line break (possible header injection).");
  }
  return foldHeader("Subject", unstructuredValue(subject));
}

/**
 * Custom headers are often structured (List-Unsubscribe holds URLs that may contain "=?"), so
 * only text that cannot travel as is gets encoded.
 */
export function customHeaderValue(value: string): string {
  return /[^\t\x20-\x7e]/.test(value) ? encodeWords(value) : value;
}

/** RFC 5322 date-time in UTC, e.g. `Thu, 13 Feb 2025 10:00:00 +0000`. */
export function formatDate(date: Date): string {
  const year = date.getUTCFullYear();
  // Outside four-digit years toUTCString writes signs and extra digits that RFC 5322 does not allow.
  if (Number.isNaN(year) || year < 1900 || year > 9999) {
    throw new Error("The message date is not a valid date.");
  }
  // ECMAScript fixes toUTCString's layout to RFC 7231's IMF-fixdate, which only differs in "GMT".
  return date.toUTCString().replace(/GMT$/, "+0000");
}
