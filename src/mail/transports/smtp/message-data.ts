const encoder = new TextEncoder();

/**
 * The bytes sent after DATA's 354: the message with CRLF line ends, every line that starts with "."
 * given one more (RFC 5321 §4.5.2), then the terminating CRLF "." CRLF. SMTP forbids bare CR and
 * LF (§2.3.8), so they become CRLF; a message already in CRLF reaches the server byte for byte.
 */
export function messageData(message: string): Uint8Array {
  const lines = message.replace(/\r\n|\r|\n/g, "\r\n");
  const stuffed = lines.replace(/(^|\r\n)\./g, "$1..");
  const ended = stuffed.endsWith("\r\n") ? stuffed : `${stuffed}\r\n`;
  return encoder.encode(`${ended}.\r\n`);
}
