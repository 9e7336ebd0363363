/** DKIM "relaxed" canonicalization (RFC 6376 §3.4.2 and §3.4.4) and the header/body split it needs. */

const CRLF = "\r\n";

export interface HeaderField {
  /** Lowercased field name, what `h=` lists and what selection compares. */
  name: string;
  /** The field as written, continuation lines and their CRLFs included. */
  raw: string;
}

export interface SplitMessage {
  headers: HeaderField[];
  body: string;
}

/** Splits a CRLF message at its first empty line; a message without one is all header. */
export function splitMessage(message: string): SplitMessage {
  const separator = message.indexOf(CRLF + CRLF);
  const headerBlock = separator === -1 ? message.replace(/\r\n$/, "") : message.slice(0, separator);
  const body = separator === -1 ? "" : message.slice(separator + 4);
  return { headers: parseHeaderFields(headerBlock), body };
}

function parseHeaderFields(headerBlock: string): HeaderField[] {
  const fields: HeaderField[] = [];
  for (const line of headerBlock.split(CRLF)) {
    const previous = fields.at(-1);
    if (previous && /^[ \t]/.test(line)) {
      previous.raw += CRLF + line;
      continue;
    }
    if (line === "") continue;
    const colon = line.indexOf(":");
    const name = (colon === -1 ? line : line.slice(0, colon)).trim().toLowerCase();
    fields.push({ name, raw: line });
  }
  return fields;
}

/**
 * §3.4.2: lowercase name, no WSP around the colon, continuation lines unfolded, WSP runs reduced
 * to one SP, no WSP at the end of the value. No trailing CRLF: the caller decides, because the
 * DKIM-Signature field itself is hashed without one.
 */
export function canonicalizeHeader(raw: string): string {
  const colon = raw.indexOf(":");
  const name = raw.slice(0, colon).trim().toLowerCase();
  const value = raw
    .slice(colon + 1)
    .replaceAll(CRLF, "")
    .replace(/[ \t]+/g, " ")
    .trim();
  return `${name}:${value}`;
}

/**
 * §3.4.4: trailing WSP removed from every line, WSP runs reduced to one SP, empty lines at the end
 * dropped, and a CRLF after the last line. A body left empty stays empty (not CRLF, which is the
 * "simple" rule of §3.4.3); RFC 6376 and the verifiers, mailauth and OpenDKIM among them, agree.
 */
export function canonicalizeBody(body: string): string {
  const lines = body.split(CRLF).map((line) => line.replace(/[ \t]+/g, " ").replace(/ $/, ""));
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines.length === 0 ? "" : lines.join(CRLF) + CRLF;
}
