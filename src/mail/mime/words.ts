/** RFC 2047 encoded-words, for header text that is not plain printable ASCII. */
import { base64Encode } from "../../lib/crypto";

const encoder = new TextEncoder();

/**
 * 39 bytes make 52 base64 characters and a 64-character word, so that even the first line of a
 * header ("Subject: " and one word) stays under the 78-character line RFC 5322 recommends.
 */
const BYTES_PER_WORD = 39;

/**
 * Whether `text` must be encoded to travel in a header: anything outside printable ASCII, and
 * text that a decoder would mistake for an encoded-word of its own.
 */
export function needsEncodedWords(text: string): boolean {
  return /[^\x20-\x7e]/.test(text) || text.includes("=?");
}

/**
 * `text` as UTF-8 base64 encoded-words separated by spaces, which decoders drop between adjacent
 * words. Words split on code point boundaries because every word must decode on its own.
 */
export function encodeWords(text: string): string {
  const words: string[] = [];
  let chunk: number[] = [];
  const flush = () => {
    if (chunk.length > 0) words.push(`=?UTF-8?B?${base64Encode(Uint8Array.from(chunk))}?=`);
    chunk = [];
  };
  for (const char of text) {
    const bytes = encoder.encode(char);
    if (chunk.length + bytes.length > BYTES_PER_WORD) flush();
    chunk.push(...bytes);
  }
  flush();
  return words.join(" ");
}
