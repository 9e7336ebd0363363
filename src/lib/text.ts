/** Facts about strings that input checks, storage limits and the MIME builder all rely on. */

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Bytes of `text` in UTF-8, counted without encoding a copy (texts here reach tens of megabytes).
 * A lone surrogate counts 3, as it is written as U+FFFD.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Bytes of `value` as JSON text in UTF-8: what it takes in a JSON column or an event payload, where
 * quotes, backslashes and line breaks take 2 bytes and other control characters 6.
 */
export const jsonLength = (value: unknown): number => utf8Length(JSON.stringify(value) ?? "");

/**
 * Whether `text` holds a C0 control character or DEL. Header text with one is garbage or an attack;
 * a tab is ordinary whitespace in header values, so callers choose whether it counts.
 */
export function hasControlCharacter(text: string, { allowTab = false } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && !(allowTab && code === 0x09)) || code === 0x7f) return true;
  }
  return false;
}

/**
 * `text` as one line that a mail header can carry: each run of control characters (line breaks
 * included) becomes one space. For text stored before names had to be one line, or decoded from
 * mail, where refusing is not an option.
 */
export function oneLine(text: string): string {
  let line = "";
  let gap = false;
  for (const ch of text) {
    if (hasControlCharacter(ch)) {
      gap = true;
      continue;
    }
    if (gap) line += " ";
    gap = false;
    line += ch;
  }
  return line.trim();
}

/** A surrogate without its pair (String#isWellFormed is ES2024, beyond this project's lib). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a lone surrogate: JSON can carry one, but UTF-8 cannot (it is mangled). */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
