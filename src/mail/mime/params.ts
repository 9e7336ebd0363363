/** Content-Type and Content-Disposition parameters, with RFC 2231 for names ASCII cannot carry. */

const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
/** `type/subtype` with optional `; attribute=value` parameters: nothing that could end the header. */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\r\\n]*"))*$`);

/** Throws unless `contentType` is a well-formed media type, since it is written into a header. */
export function checkMediaType(contentType: string): string {
  const trimmed = contentType.trim();
  if (!MEDIA_TYPE.test(trimmed))
    throw new Error(`Invalid attachment content type ${JSON.stringify(contentType)}.`);
  return trimmed;
}

/**
 * Longer names switch to the extended form, whose sections fold onto separate lines: a quoted
 * name cannot be split, and lines should stay within 78 characters.
 */
const MAX_QUOTED = 60;
/** Percent-encoded characters per RFC 2231 section: ` filename*12*=` plus a section and ";" fit 78. */
const SECTION_LENGTH = 56;
/** RFC 2231 attribute-char: what may appear unescaped in an extended value. */
const ATTRIBUTE_CHAR = /^[A-Za-z0-9!#$&+.^_`|~-]$/;
const encoder = new TextEncoder();

function percentEncode(value: string): string[] {
  const escaped: string[] = [];
  for (const byte of encoder.encode(value)) {
    const char = String.fromCharCode(byte);
    escaped.push(ATTRIBUTE_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`);
  }
  return escaped;
}

/**
 * `attr="value"` for short printable ASCII without quotes or backslashes; otherwise RFC 2231
 * `attr*=UTF-8''...`, split into `attr*0*=`, `attr*1*=` ... sections when long. Sections are
 * joined with "; " so that folding can break between them.
 */
export function parameter(attribute: string, value: string): string {
  if (/^[\x20-\x7e]*$/.test(value) && !/["\\]/.test(value) && value.length <= MAX_QUOTED) {
    return `${attribute}="${value}"`;
  }
  const sections: string[] = [];
  let current = "";
  // Escapes are kept whole: a section may not end inside a %XX triplet.
  for (const piece of percentEncode(value)) {
    if (current.length + piece.length > SECTION_LENGTH) {
      sections.push(current);
      current = "";
    }
    current += piece;
  }
  sections.push(current);
  if (sections.length === 1) return `${attribute}*=UTF-8''${current}`;
  return sections
    .map((section, index) => `${attribute}*${index}*=${index === 0 ? "UTF-8''" : ""}${section}`)
    .join("; ");
}
