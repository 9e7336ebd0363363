/**
 * Body transfer encodings. Both produce 7-bit lines of at most 76 characters, joined with CRLF and
 * without a trailing CRLF (the enclosing structure owns the line break that follows a body).
 */
export const CRLF = "\r\n";
const LINE_LIMIT = 76;
const encoder = new TextEncoder();

/** 57 bytes are exactly one 76-character base64 line. */
const BYTES_PER_LINE = 57;
/** Whole lines per btoa call: measured fastest, and far below fromCharCode's argument limit. */
const LINES_PER_BLOCK = 256;

/**
 * Base64 wrapped at 76 characters, as RFC 2045 requires of the base64 transfer encoding. Works a
 * block of whole lines at a time because per-byte string building is slow on multi-megabyte files.
 */
export function base64Lines(bytes: Uint8Array): string {
  const lines: string[] = [];
  const blockSize = BYTES_PER_LINE * LINES_PER_BLOCK;
  for (let offset = 0; offset < bytes.length; offset += blockSize) {
    // apply takes any array-like; it is an order of magnitude faster than spreading a typed array.
    const codes = bytes.subarray(offset, offset + blockSize) as unknown as number[];
    const block = btoa(String.fromCharCode.apply(null, codes));
    for (let start = 0; start < block.length; start += LINE_LIMIT) {
      lines.push(block.slice(start, start + LINE_LIMIT));
    }
  }
  return lines.join(CRLF);
}

const hexByte = (byte: number) => `=${byte.toString(16).toUpperCase().padStart(2, "0")}`;

/**
 * A byte as it appears in quoted-printable. Besides RFC 2045's rules (escape "=", controls, 8-bit
 * bytes, and whitespace that ends a line), a "." or "F" that starts a physical line is escaped, so
 * that no line needs SMTP dot-stuffing and mbox tools never see a "From " line.
 */
function qpToken(byte: number, atLineStart: boolean, atLineEnd: boolean): string {
  const whitespace = byte === 0x20 || byte === 0x09;
  const printable = byte >= 0x21 && byte <= 0x7e && byte !== 0x3d;
  const guarded = atLineStart && (byte === 0x2e || byte === 0x46);
  return (printable && !guarded) || (whitespace && !atLineEnd) ? String.fromCharCode(byte) : hexByte(byte);
}

function encodeLine(line: string): string {
  const bytes = encoder.encode(line);
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    const atEnd = i === bytes.length - 1;
    let token = qpToken(byte, current === "", atEnd);
    // Room is kept for the "=" of the soft line break, and an =XX escape is never split.
    if (current.length + token.length > LINE_LIMIT - 1) {
      out.push(`${current}=`);
      current = "";
      token = qpToken(byte, true, atEnd);
    }
    current += token;
  }
  out.push(current);
  return out.join(CRLF);
}

/**
 * Quoted-printable of the UTF-8 bytes of `text`. Any line break (CRLF, LF or CR) becomes a hard
 * CRLF; long lines get soft breaks so that no encoded line passes 76 characters.
 */
export function quotedPrintable(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map(encodeLine)
    .join(CRLF);
}
