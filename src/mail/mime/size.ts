const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Size in bytes as sent: the UTF-8 length, counted without encoding a copy of a message that may
 * be tens of megabytes. A built message is ASCII, so this equals its length.
 */
export function mimeSize(mime: string): number {
  let bytes = 0;
  for (let i = 0; i < mime.length; i++) {
    const code = mime.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && isLowSurrogate(mime.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3; // a lone surrogate is sent as U+FFFD, three bytes
  }
  return bytes;
}
